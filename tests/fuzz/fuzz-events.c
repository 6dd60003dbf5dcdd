/*
 * The event-list parser: the input is an alias file (pmbench-events(5))
 * whose first line is also taken as a -e list, checked, split and
 * resolved against the aliases parsed (encoded with libpfm4, not opened).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = pm_fuzz_text(data, size), *list, **names;
	struct pm_aliases aliases = { 0 };
	struct pm_events ev = { 0 };
	struct pm_err e;

	pm_aliases_parse(&aliases, text, "fuzz.events", &e);
	list = pm_xstrdup(text);
	list[strcspn(list, "\n")] = '\0';
	if (pm_list_valid(list, ',') && strlen(list) < 4096) {
		names = pm_strv_split(list, ',');
		pm_events_resolve(&ev, names, &aliases, false, &e);
		pm_strv_free(names);
	}
	pm_events_free(&ev);
	pm_aliases_free(&aliases);
	free(list);
	free(text);
	return 0;
}
