#!/usr/bin/env python3
"""Write the explain fixtures: pairs of pmbench result files, each pair
with one planted cause, modelled on the kernel comparisons in lmbench and
AIM9 mails (figures from those reports where they exist).  Run by hand
(python3 generate.py) when the result format changes; the JSON files are
committed and the tests read them."""

import json, math, os, random

HERE = os.path.dirname(os.path.abspath(__file__))

NO_PMU = "no hardware PMU on this machine (perf_event_open: ENOENT); a virtual machine needs PMU passthrough (e.g. KVM -cpu host,pmu=on)"

LMBENCH = {
    "null": "proc: null call", "null-io": "proc: null I/O", "stat": "proc: stat",
    "open": "proc: open clos", "sig-install": "proc: sig inst", "sig-catch": "proc: sig hndl",
    "fork": "proc: fork proc", "exec": "proc: exec proc", "sh": "proc: sh proc",
    "mmap": "fs: Mmap Latency", "page-fault": "fs: Page Fault", "pipe": "lat: Pipe",
}

def sysinfo(release, **kw):
    si = {
        "hostname": kw.get("host", "testbox"),
        "kernel": {"release": release, "version": "#1 SMP", "machine": kw.get("machine", "x86_64"),
                   "cmdline": kw.get("cmdline", "root=/dev/sda1 ro quiet"),
                   "config": kw.get("config", {"CONFIG_X86_64": "y", "CONFIG_HZ": "250"}),
                   "text_size": kw.get("text", 9_437_184), "preemption": kw.get("preempt", "voluntary"),
                   "hz": 250, "page_table_levels": kw.get("levels", 4),
                   "paravirt": kw.get("paravirt", False)},
        "cpu": {"vendor": kw.get("vendor", "GenuineIntel"), "family": 6, "model": 85,
                "model_name": kw.get("cpu", "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz"),
                "online": 8, "cur_mhz": kw.get("mhz", 2100), "governor": kw.get("governor", "performance"),
                "flags": ["fpu", "pae"]},
        "vulnerabilities": kw.get("vuln", {"meltdown": "Not affected", "spectre_v2": "Not affected"}),
        "mitigations": kw.get("mitigations", "auto"),
        "clocksource": {"current": "tsc", "available": ["tsc", "hpet"]},
        "thp": {"enabled": "madvise", "defrag": "madvise"},
        "perf": {"perf_event_paranoid": 2, "kptr_restrict": 0},
        "libc": "glibc 2.36",
        "unavailable": {},
    }
    return si

def trials(median, rel, n, rng):
    # symmetric noise around the median, every trial kept
    v = [median * (1 + rel * rng.uniform(-1, 1)) for _ in range(n)]
    v.sort()
    v[n // 2] = median
    rng.shuffle(v)
    return v

def stats(t, converged=True):
    s = sorted(t)
    n = len(s)
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    lo, hi = (2, n - 3) if n >= 12 else (0, n - 1)
    mean = sum(s) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in s) / (n - 1))
    return {"n": n, "median_ns": med, "ci_low_ns": s[lo], "ci_high_ns": s[hi], "ci_level": 0.96,
            "mean_ns": mean, "stddev_ns": sd, "min_ns": s[0], "max_ns": s[-1],
            "mad_ns": sorted(abs(x - med) for x in s)[n // 2], "converged": converged}

def counters(sw, hw=None, inherit=False):
    ev = []
    for name in ("cycles", "instructions", "icache", "branch-misses"):
        if hw and name in hw:
            total, kshare = hw[name]
            ev.append({"name": name, "event": "perf::" + name, "status": "ok", "reason": None,
                       "software": False, "user_only": False, "per_op": total,
                       "user_per_op": total * (1 - kshare), "kernel_per_op": total * kshare, "running": 1.0})
        else:
            ev.append({"name": name, "event": None, "status": "not-supported", "reason": NO_PMU,
                       "software": False, "user_only": False, "per_op": None,
                       "user_per_op": None, "kernel_per_op": None, "running": None})
    for name in ("task-clock", "page-faults", "context-switches", "cpu-migrations"):
        ev.append({"name": name, "event": "perf::" + name, "status": "ok", "reason": None,
                   "software": True, "user_only": False, "per_op": sw.get(name, 0.0),
                   "user_per_op": None, "kernel_per_op": None, "running": 1.0})
    return {"done": True, "ops": 10000, "ns_per_op": sw["task-clock"], "perturbation": 1.01,
            "inherit": inherit, "processes": 1,
            "rusage": {"user_ns_per_op": sw["task-clock"] * 0.2, "sys_ns_per_op": sw["task-clock"] * 0.8},
            "events": ev}

def hotspots(median, kshare, syms, samples=8000):
    """syms: list of (name, object, kernel, share_of_all, size)"""
    out = []
    for name, obj, kernel, share, size in syms:
        out.append({"name": name, "object": obj, "kernel": kernel, "size": size, "size_exact": not kernel,
                    "samples": int(share * samples), "share": share, "cost_ns_per_op": share * median})
    listed_k = sum(s[3] for s in syms if s[2])
    listed_u = sum(s[3] for s in syms if not s[2])
    if kshare - listed_k > 1e-9:
        out.append({"name": "[other]", "object": "[kernel]", "kernel": True, "size": 0, "size_exact": False,
                    "samples": int((kshare - listed_k) * samples), "share": kshare - listed_k,
                    "cost_ns_per_op": (kshare - listed_k) * median})
    if (1 - kshare) - listed_u > 1e-9:
        out.append({"name": "[other]", "object": "[user]", "kernel": False, "size": 0, "size_exact": False,
                    "samples": int((1 - kshare - listed_u) * samples), "share": 1 - kshare - listed_u,
                    "cost_ns_per_op": (1 - kshare - listed_u) * median})
    return {"event": "cpu-clock", "period": 50000, "period_unit": "ns", "call_graph": "fp",
            "samples": samples, "lost": 0, "child_samples": 0, "ops": 10000, "slowdown": 1.5,
            "kernel_share": kshare, "user_share": 1 - kshare, "resolved_share": 0.995,
            "sampled_cpu_ns_per_op": median, "kernel_symbols": "/proc/kallsyms",
            "kernel_unavailable": None, "symbols": out,
            "stacks": [{"stack": "pmbench;" + s[0], "samples": int(s[3] * samples)} for s in syms]}

def rounds_of(med, rel, per_round, rng, runs, nrounds, round_sd, run_sd, ref, busy):
    """trials in rounds (each a fresh process) of one or several runs: a
    small shift per round and per run, symmetric so that the geometric
    mean of the rounds stays at med"""
    t, rounds = [], []
    sym = lambda n: [(i - (n - 1) / 2) for i in range(n)]
    run_shift = sym(runs)
    for r in range(runs):
        shifts = sym(nrounds)
        rng.shuffle(shifts)
        for k in range(nrounds):
            m = med * math.exp(run_sd * run_shift[r] + round_sd * shifts[k])
            t += trials(m, rel, per_round, rng)
            rounds.append({"run": r, "trials": per_round, "reference_ns": ref, "busy": busy,
                           "started_s": 0.2 * (k + 1)})
    return t, rounds

def bench(name, median_us, rng, syms=None, kshare=0.8, rel=0.008, sw=None, hw=None,
          ref=1.2, busy=0.0, converged=True, migrations=0.0, unit="us", cpu=0, n=4,
          runs=1, nrounds=5, round_sd=0.004, run_sd=0.004):
    med = median_us * 1000.0
    t, rounds = rounds_of(med, rel, n, rng, runs, nrounds, round_sd, run_sd, ref, busy)
    st = stats(t, converged)
    sw = dict(sw or {})
    sw.setdefault("task-clock", med)
    sw.setdefault("page-faults", 0.0)
    sw.setdefault("context-switches", 0.0)
    sw["cpu-migrations"] = migrations
    b = {"name": name, "group": "proc", "summary": name, "unit": unit, "lmbench": LMBENCH.get(name),
         "aim9": None, "status": "ok", "reason": None,
         "params": {"iterations": 1000, "ops_per_iter": 1, "overhead_ns": 0.5, "bytes_per_op": None,
                    "placement": None, "cpu": cpu, "detail": None},
         "trials_ns": t, "rounds": rounds, "stats": st, "elapsed_s": 1.0,
         "reference_ns": ref, "busy": busy,
         "counters": counters(sw, hw, inherit=name in ("fork", "exec", "sh"))}
    if syms is not None:
        b["hotspots"] = hotspots(med, kshare, syms)
    return b

def shaped(median_ns, syms_ns, user_other):
    """hotspots from per-op costs in ns: the rest of the kernel time is
    whatever the listed symbols and user_other leave of the median"""
    syms = [(n, o, k, ns / median_ns, size) for n, o, k, ns, size in syms_ns]
    user = sum(ns for _, _, k, ns, _ in syms_ns if not k) + user_other
    return {"syms": syms, "kshare": 1 - user / median_ns}

def result(label, si, benches):
    r = {"format": "pmbench-result", "schema": 1, "source": "run", "created": "2026-12-02T10:00:00Z",
         "pmbench_version": "0.1.0", "label": label, "command": ["pmbench", "run", "quick"],
         "options": {"target_time_ms": 10.0, "rounds": 5}, "sysinfo": si, "benchmarks": benches}
    runs = max(x["run"] for b in benches for x in b["rounds"]) + 1
    if runs > 1:
        # several runs merged into one file, as pmbench ab writes them
        r["runs"] = [{"created": "2026-12-02T10:%02d:00Z" % i, "label": label, "file": None}
                     for i in range(runs)]
    return r

def write(dirname, name, obj):
    d = os.path.join(HERE, dirname)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")

def syscall_benches(rng, extra_ns=0.0, entry_syms=None, scale=1.0, **kw):
    """null .. sig-catch with the syscall entry cost 'extra_ns' added"""
    out = []
    base = [("null", 0.49), ("null-io", 0.57), ("stat", 2.06), ("open", 3.06),
            ("sig-install", 0.89), ("sig-catch", 2.70)]
    for name, us in base:
        med = (us * 1000 * scale + extra_ns)
        entry = 0.25 * us * 1000 * scale
        syms = [("do_syscall_64", "[kernel]", True, 0.0, 656),
                ("entry_SYSCALL_64", "[kernel]", True, 0.0, 200)]
        impl = {"null": "__x64_sys_getppid", "null-io": "vfs_read", "stat": "link_path_walk",
                "open": "path_openat", "sig-install": "__x64_sys_rt_sigaction",
                "sig-catch": "copy_fpstate_to_sigframe"}[name]
        body = 0.55 * us * 1000 * scale
        user = 0.2 * us * 1000 * scale
        extra_syms = []
        if entry_syms:
            for sname, frac in entry_syms:
                extra_syms.append((sname, "[kernel]", True, extra_ns * frac / med, 96))
        syms = [("entry_SYSCALL_64", "[kernel]", True, (entry + extra_ns * (1 - sum(f for _, f in entry_syms or []))) / med, 200),
                (impl, "[kernel]", True, body / med, 400),
                ("syscall", "libc.so.6", False, user / med, 51)] + extra_syms
        kshare = (entry + body + extra_ns) / med
        out.append(bench(name, med / 1000, rng, syms=syms, kshare=kshare, **kw))
    return out

def page_tables():
    """lmbench on i686 2.6.10 (2-level) vs 2.6.11 (4-level): fork 166 -> 235,
    exec 857 -> 1003, mmap 122 -> 163 (Ian Pratt's lkml report, 2005)."""
    cfg_a = {"CONFIG_X86_32": "y", "CONFIG_PGTABLE_LEVELS": "2", "CONFIG_HZ": "250"}
    cfg_b = {"CONFIG_X86_32": "y", "CONFIG_PGTABLE_LEVELS": "4", "CONFIG_HZ": "250"}
    for run in range(3):
        rng = random.Random(100 + run)
        old = syscall_benches(rng)
        new = syscall_benches(random.Random(200 + run))
        for side, lst, fork_us, exec_us, mmap_us, pt in (("old", old, 166, 857, 122.0, 1.0),
                                                            ("new", new, 235, 1003, 163.0, 2.0)):
            r = random.Random(300 + run + (side == "new") * 7)
            # fork: page-table copy and teardown double, new levels appear;
            # the rest of the kernel work and the user part stay the same
            fk = fork_us * 1000
            syms = [("copy_page_range", "[kernel]", True, 30_000 * pt, 1200 if pt == 1 else 1650),
                    ("copy_process", "[kernel]", True, 20_000, 7500),
                    ("unmap_page_range", "[kernel]", True, 12_000 * pt, 5200),
                    ("free_pgtables", "[kernel]", True, 4_000 * pt, 600),
                    ("__fork", "libc.so.6", False, 8_000, 1200)]
            if pt > 1:
                syms += [("__pud_alloc", "[kernel]", True, 6_000, 200),
                         ("__pmd_alloc", "[kernel]", True, 5_000, 200)]
            lst.append(bench("fork", fork_us, r, **shaped(fk, syms, user_other=12_000),
                             sw={"page-faults": 20}))
            ex = exec_us * 1000
            syms = [("copy_page_range", "[kernel]", True, 20_000 * pt, 1200 if pt == 1 else 1650),
                    ("unmap_page_range", "[kernel]", True, 40_000 * pt, 5200),
                    ("free_pgtables", "[kernel]", True, 15_000 * pt, 600),
                    ("load_elf_binary", "[kernel]", True, 120_000, 9000),
                    ("_dl_relocate_object", "ld-linux.so.2", False, 150_000, 4000)]
            if pt > 1:
                syms.append(("__pud_alloc", "[kernel]", True, 12_000, 200))
            lst.append(bench("exec", exec_us, r, **shaped(ex, syms, user_other=200_000),
                             sw={"page-faults": 70}))
            mm = mmap_us * 1000
            syms = [("unmap_page_range", "[kernel]", True, 30_000 * pt, 5200),
                    ("free_pgtables", "[kernel]", True, 8_000 * pt, 600),
                    ("filemap_map_pages", "[kernel]", True, 40_000, 2000),
                    ("mmap_run", "pmbench", False, 6_000, 120)]
            if pt > 1:
                syms.append(("__pmd_alloc", "[kernel]", True, 3_000, 200))
            lst.append(bench("mmap", mmap_us, r, **shaped(mm, syms, user_other=0),
                             sw={"page-faults": 128}))
        si_a = sysinfo("2.6.10", machine="i686", levels=2, config=cfg_a, text=2_400_000,
                       cpu="Intel(R) Xeon(TM) CPU 2.40GHz", mhz=2400)
        si_b = sysinfo("2.6.11", machine="i686", levels=4, config=cfg_b, text=2_430_000,
                       cpu="Intel(R) Xeon(TM) CPU 2.40GHz", mhz=2400)
        write("page-tables/old", "run-%d.json" % run, result("2.6.10", si_a, old))
        write("page-tables/new", "run-%d.json" % run, result("2.6.11", si_b, new))

def paravirt():
    """lat_mmap with CONFIG_PARAVIRT (Nick Piggin, lkml 2009): 464.22 vs 502.87,
    and the PV kernel has over 100K larger text.  No PMU on this box."""
    rng = random.Random(7)
    out = {}
    for side, pv, mm_us, text in (("old", False, 464.22, 7_340_032), ("new", True, 502.87, 7_340_032 + 104_448)):
        lst = syscall_benches(random.Random(11 if side == "old" else 12))
        mm = mm_us * 1000
        hook = 0 if not pv else 30_000
        syms = [("unmap_page_range", "[kernel]", True, 150_000 / mm, 5200 if not pv else 5400),
                ("filemap_map_pages", "[kernel]", True, 120_000 / mm, 2000 if not pv else 2100),
                ("native_set_pte_at", "[kernel]", True, 5_000 / mm, 64),
                ("mmap_run", "pmbench", False, 40_000 / mm, 120)]
        if pv:
            syms.append(("_paravirt_nop", "[kernel]", True, 12_000 / mm, 8))
            syms.append(("pv_native_flush_tlb_one_user", "[kernel]", True, 16_000 / mm, 48))
            syms.append(("native_flush_tlb_one_user", "[kernel]", True, 10_000 / mm, 48))
        lst.append(bench("mmap", mm_us, random.Random(21 if side == "old" else 22), syms=syms,
                         kshare=0.9, sw={"page-faults": 128}, runs=5, run_sd=0.006))
        cfg = {"CONFIG_X86_64": "y", "CONFIG_HZ": "250"}
        if pv:
            cfg["CONFIG_PARAVIRT"] = "y"
        si = sysinfo("2.6.29-rc2" + ("-pv" if pv else ""), paravirt=pv, config=cfg, text=text,
                     cpu="Quad-Core AMD Opteron(tm) Processor 2356", vendor="AuthenticAMD", mhz=2300)
        out[side] = result(side, si, lst)
    write("paravirt", "old.json", out["old"])
    write("paravirt", "new.json", out["new"])

def mitigations():
    """The same kernel booted with mitigations=off and with the defaults:
    PTI and retpolines put a fixed cost on every kernel entry and exit."""
    cfg = {"CONFIG_X86_64": "y", "CONFIG_PAGE_TABLE_ISOLATION": "y", "CONFIG_RETPOLINE": "y"}
    old = syscall_benches(random.Random(31))
    new = syscall_benches(random.Random(32), extra_ns=260.0,
                          entry_syms=[("entry_SYSCALL_64_trampoline", 0.35),
                                      ("native_write_cr3", 0.25),
                                      ("__x86_indirect_thunk_rax", 0.15)])
    si_a = sysinfo("5.10.0-20-amd64", cmdline="root=/dev/sda1 ro quiet mitigations=off",
                   vuln={"meltdown": "Vulnerable", "spectre_v2": "Vulnerable"}, config=cfg,
                   mitigations="off")
    si_b = sysinfo("5.10.0-20-amd64", cmdline="root=/dev/sda1 ro quiet",
                   vuln={"meltdown": "Mitigation: PTI", "spectre_v2": "Mitigation: Retpolines, IBPB: conditional"},
                   config=cfg, mitigations="auto")
    write("mitigations", "old.json", result("mitigations=off", si_a, old))
    write("mitigations", "new.json", result("default", si_b, new))

def frequency():
    """The same machine at 3.0 GHz (performance) and 2.0 GHz (powersave):
    everything takes 1.5x as long, cycles and instructions per op unchanged."""
    out = {}
    for side, mhz, gov, scale in (("old", 3000, "performance", 1.0), ("new", 2000, "powersave", 1.5)):
        lst = []
        r = random.Random(41 if side == "old" else 42)
        for name, us, instr in (("null", 0.10, 350), ("stat", 0.60, 2400), ("fork", 60.0, 180000),
                                ("pipe", 3.0, 9000)):
            med = us * scale
            cyc = us * 1000 * 3.0   # cycles at 3 GHz: the same work
            syms = [("do_syscall_64", "[kernel]", True, 0.3, 656),
                    ("entry_SYSCALL_64", "[kernel]", True, 0.2, 200),
                    ("work_" + name.replace("-", "_"), "[kernel]", True, 0.3, 800),
                    ("syscall", "libc.so.6", False, 0.2, 51)]
            lst.append(bench(name, med, r, syms=syms, kshare=0.8, ref=1.0 * scale,
                             hw={"cycles": (cyc, 0.8), "instructions": (instr, 0.8),
                                 "icache": (instr * 0.002, 0.8), "branch-misses": (instr * 0.001, 0.8)}))
        si = sysinfo("6.1.0-13-amd64", mhz=mhz, governor=gov, cpu="Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz")
        out[side] = result(side, si, lst)
    write("frequency", "old.json", out["old"])
    write("frequency", "new.json", out["new"])

def noisy():
    """The same kernel and machine; NEW ran while a build used the CPUs:
    wide intervals, migrations, other runnable tasks."""
    old = syscall_benches(random.Random(51))
    new = []
    r = random.Random(52)
    for b in syscall_benches(random.Random(53), scale=1.08):
        t, rounds = rounds_of(b["stats"]["median_ns"], 0.25, 8, r, 1, 5, 0.08, 0, 1.2, 1.6)
        b["trials_ns"] = t
        b["rounds"] = rounds
        b["stats"] = stats(t, converged=False)
        b["busy"] = 1.6
        b["params"]["cpu"] = -1
        for ev in b["counters"]["events"]:
            if ev["name"] == "cpu-migrations":
                ev["per_op"] = 0.02
            if ev["name"] == "context-switches":
                ev["per_op"] = 0.05
        new.append(b)
    si = sysinfo("6.1.0-13-amd64")
    write("noisy", "old.json", result("quiet", si, old))
    write("noisy", "new.json", result("busy", si, new))

def scaling():
    """AIM9 shared_memory, 2.4.19 vs 2.5.49 (Andrew Morton, lkml 2002):
    uniprocessors take a 5% hit from the scalability changes, but four
    instances on a 4-way run 250% faster."""
    out = {}
    for side, one_us, eff4 in (("old", 1 / 0.274220, 0.35), ("new", 1 / 0.274220 * 1.05, 0.9)):
        r = random.Random(61 if side == "old" else 62)
        b = bench("aim9-shared-memory", one_us, r, unit="ops/s", runs=3)
        b["group"] = "aim9"
        b["aim9"] = "shared_memory"
        b["lmbench"] = None
        tput1 = 1e6 / one_us
        b["scaling"] = {"mode": "instances", "points": [
            {"n": 1, "ops_per_s": tput1, "ns_per_op": one_us * 1000, "efficiency": 1.0},
            {"n": 2, "ops_per_s": 2 * tput1 * (1 + eff4) / 2, "ns_per_op": one_us * 1000 * 2 / (1 + eff4),
             "efficiency": (1 + eff4) / 2},
            {"n": 4, "ops_per_s": 4 * tput1 * eff4, "ns_per_op": one_us * 1000 / eff4, "efficiency": eff4}]}
        si = sysinfo("2.4.19" if side == "old" else "2.5.49", cpu="Pentium III (Coppermine)", mhz=800)
        si["cpu"]["online"] = 4
        out[side] = result(side, si, [b])
    write("scaling", "old.json", out["old"])
    write("scaling", "new.json", out["new"])

def spread():
    """explain --spread-from: one run a side, rounds tight inside each run,
    and a history of six runs of the same host and kernel that differ by
    about 6% between runs (as kernel-heavy benchmarks do on a drifting
    VM).  old -> new is +12%: beyond what the rounds show, within what the
    runs show.  other-host.json ran elsewhere (not this machine's spread);
    other-kernel/ are runs of another kernel, 40% slower (a real
    difference, not spread)."""
    rng = random.Random(12)
    si = sysinfo("6.1.0-spread", host="spreadbox")
    def one(med_us, created, s=si):
        r = result(None, s, [bench("null", med_us, rng, rel=0.004, round_sd=0.002)])
        r["created"] = created
        return r
    for i, f in enumerate([1.00, 1.07, 0.94, 1.06, 0.95, 1.08]):
        write("spread/history", "2026120%dT10%02d00Z-6.1.0-spread.json" % (1, i),
              one(1.0 * f, "2026-12-01T10:%02d:00Z" % i))
    write("spread/history", "20261201T110000Z-6.1.0-spread.json",
          one(3.0, "2026-12-01T11:00:00Z", sysinfo("6.1.0-spread", host="elsewhere")))
    for i, f in enumerate([1.40, 1.41, 1.39]):
        write("spread/other-kernel", "20261201T12%02d00Z-6.9.0-other.json" % i,
              one(f, "2026-12-01T12:%02d:00Z" % i, sysinfo("6.9.0-other", host="spreadbox")))
    write("spread", "old.json", one(1.00, "2026-12-02T10:00:00Z"))
    write("spread", "new.json", one(1.12, "2026-12-02T10:01:00Z"))
    # runs of another benchmark list (null within a suite): other conditions
    for i, f in enumerate([1.00, 1.30, 0.75]):
        r = result(None, si, [bench("null", f, rng, rel=0.004, round_sd=0.002),
                              bench("stat", 2.0 * f, rng, rel=0.004, round_sd=0.002)])
        r["created"] = "2026-12-01T13:%02d:00Z" % i
        write("spread/other-suite", "20261201T13%02d00Z-6.1.0-spread.json" % i, r)

def suite():
    """The whole run slower: one run a side, eight benchmarks with tight
    rounds, seven of them 15-30% slower in new.json, and identical
    fingerprints (a shared host's busy minutes).  new-cmdline.json is the
    same figures booted with another command line: a kernel's doing."""
    rng = random.Random(13)
    names = [("null", 0.49), ("stat", 2.06), ("open", 3.06), ("select", 1.7),
             ("sig-install", 0.89), ("fork", 80.0), ("pipe", 9.0), ("mmap", 300.0)]
    slower = [1.15, 1.22, 1.25, 1.21, 1.12, 1.30, 1.20, 1.0]
    si = sysinfo("6.1.0-suite")
    def one(f, created, s=si):
        r = result(None, s, [bench(n, us * k, rng, rel=0.004, round_sd=0.002)
                             for (n, us), k in zip(names, f)])
        r["created"] = created
        return r
    write("suite", "old.json", one([1.0] * 8, "2026-12-02T10:00:00Z"))
    write("suite", "new.json", one(slower, "2026-12-02T10:01:00Z"))
    write("suite", "new-cmdline.json", one(slower, "2026-12-02T10:02:00Z",
          sysinfo("6.1.0-suite", cmdline="root=/dev/sda1 ro quiet pti=on")))

def knockout():
    """Boots for pmbench ab's knock-out experiment (tests/cli/ab.sh with
    tests/helpers/fake-qemu): two kernel images, stat 15 us on A and 6 us
    on B, the slab allocator's time per op (kmem_cache_alloc) most of
    what moved; booted again with init_on_alloc=0 on both sides, A drops
    to 6.4 us and B to 5.9 us, so the knock-out takes most of the change
    away.  Three boots of each arm, 2% apart from boot to boot; null the
    same everywhere."""
    cfg = {"CONFIG_X86_64": "y", "CONFIG_INIT_ON_ALLOC_DEFAULT_ON": "y", "CONFIG_SLUB": "y"}
    arms = {"a": ("A", "6.1.0-57-amd64", 15000, 4200), "b": ("B", "6.12.118+deb12-amd64", 6000, 550),
            "ka": ("K1A", "6.1.0-57-amd64", 6400, 500), "kb": ("K1B", "6.12.118+deb12-amd64", 5900, 450)}
    for arm, (label, release, stat_ns, slab_ns) in sorted(arms.items()):
        for boot in (1, 2, 3):
            rng = random.Random("%s%d" % (arm, boot))
            scale = 1 + 0.02 * (boot - 2)
            med = stat_ns * scale
            sh = shaped(med, [("kmem_cache_alloc", "[kernel]", True, slab_ns * scale, 900),
                              ("link_path_walk", "[kernel]", True, 4900 * scale, 2400),
                              ("stat_run", "pmbench", False, 400 * scale, 120)], 100)
            lst = [bench("stat", med / 1000, rng, syms=sh["syms"], kshare=sh["kshare"], rel=0.004,
                         round_sd=0.002),
                   bench("null", 0.5 * scale, rng, rel=0.004, round_sd=0.002)]
            write("knockout", "%s%d.json" % (arm, boot), result(label, sysinfo(release, config=cfg), lst))

if __name__ == "__main__":
    scaling()
    page_tables()
    paravirt()
    mitigations()
    frequency()
    noisy()
    spread()
    suite()
    knockout()
