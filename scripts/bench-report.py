#!/usr/bin/python3
"""Turn make bench's guest output into a table, the targets' ratios and a plot.

usage: bench-report.py OUTDIR KERNEL=BENCH.LOG...

Each log has lines "bench CASE RUN MiB/s" and "# profile CASE SHARE
SYMBOL" (guest/bench).  Writes OUTDIR/results.md (median and min per case
and kernel, the issue's targets as ratios of medians, then the busiest
symbols of each profiled case) and OUTDIR/results.png (gnuplot).
"""
import os
import statistics
import subprocess
import sys

CASES = [
    ("local-buffered", "local ext4, buffered, 1 MiB sequential"),
    ("local-direct", "local ext4, O_DIRECT, 1 MiB sequential"),
    ("nofsc", "NFS without fsc, 1 MiB sequential"),
    ("fsc-cold", "NFS fsc cold (filling the cache)"),
    ("fsc-warm", "NFS fsc warm (after drop_caches)"),
    ("fsc-warm-remount", "NFS fsc warm (after remount)"),
    ("nofsc-4", "NFS without fsc, 4 readers, aggregate"),
    ("fsc-cold-4", "NFS fsc cold, 4 readers, aggregate"),
    ("fsc-warm-4", "NFS fsc warm, 4 readers, aggregate"),
    ("local-rand-4k", "local ext4, random 4 KiB"),
    ("nofsc-rand-4k", "NFS without fsc, random 4 KiB"),
    ("fsc-warm-rand-4k", "NFS fsc warm, random 4 KiB"),
    ("local-rand-64k", "local ext4, random 64 KiB"),
    ("nofsc-rand-64k", "NFS without fsc, random 64 KiB"),
    ("fsc-warm-rand-64k", "NFS fsc warm, random 64 KiB"),
]
SEQUENTIAL = ["local-buffered", "local-direct", "nofsc", "fsc-cold",
              "fsc-warm", "fsc-warm-remount", "fsc-warm-4"]


PROFILE_TOP = 10


def parse(path):
    """The kernel's version, the runs by case and the profiles by case."""
    runs, profiles, kernel = {}, {}, ""
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            words = line.split()
            if line.startswith("# kernel "):
                kernel = line[len("# kernel "):].strip()
            if len(words) >= 4 and words[:2] == ["#", "profile"]:
                profiles.setdefault(words[2], []).append(
                    (words[3], " ".join(words[4:])))
            if len(words) == 4 and words[0] == "bench":
                try:
                    runs.setdefault(words[1], []).append(float(words[3]))
                except ValueError:
                    runs.setdefault(words[1], []).append(None)
    return kernel, runs, profiles


def main():
    outdir, specs = sys.argv[1], sys.argv[2:]
    kernels, versions, results, profiles = [], {}, {}, {}
    for spec in specs:
        name, path = spec.split("=", 1)
        kernels.append(name)
        versions[name], results[name], profiles[name] = parse(path)

    def runs(kernel, case):
        return results.get(kernel, {}).get(case, [])

    def median(kernel, case):
        values = runs(kernel, case)
        if not values or None in values:
            return None
        return statistics.median(values)

    def cell(kernel, case):
        values = runs(kernel, case)
        if not values:
            return "-"
        if None in values:
            return "failed"
        return f"{statistics.median(values):.0f} ({min(values):.0f})"

    lines = ["| case (MiB/s: median (min)) | " + " | ".join(kernels) + " |",
             "|---|" + "---|" * len(kernels)]
    for case, title in CASES:
        lines.append(f"| {title} | " +
                     " | ".join(cell(k, case) for k in kernels) + " |")
    lines.append("")
    lines.append("Runs per case: " + ", ".join(
        f"{k} {len(runs(k, 'fsc-warm'))}" for k in kernels) + ".")
    lines.append("")
    for k in kernels:
        lines.append(f"- {k}: {versions[k]}")

    patched, stock, new = "patched-6.1", "stock-6.1", "stock-6.12"

    def ratio(num, den):
        if num is None or den is None or den == 0:
            return None
        return num / den

    local = [median(patched, c) for c in ("local-buffered", "local-direct")]
    local = max((v for v in local if v is not None), default=None)
    targets = [
        ("patched 6.1 fsc warm / stock 6.12 fsc warm", 1.0,
         ratio(median(patched, "fsc-warm"), median(new, "fsc-warm"))),
        ("patched 6.1 fsc warm / stock 6.1 fsc warm (for information)", None,
         ratio(median(patched, "fsc-warm"), median(stock, "fsc-warm"))),
        ("patched 6.1 fsc warm / local limit (better of buffered, O_DIRECT)",
         0.9, ratio(median(patched, "fsc-warm"), local)),
        ("patched 6.1 fsc warm / local buffered read (for information)",
         None, ratio(median(patched, "fsc-warm"),
                     median(patched, "local-buffered"))),
        ("patched 6.1 fsc cold / patched 6.1 no fsc", 0.9,
         ratio(median(patched, "fsc-cold"), median(patched, "nofsc"))),
        ("patched 6.1 no fsc / stock 6.1 no fsc", 0.97,
         ratio(median(patched, "nofsc"), median(stock, "nofsc"))),
        ("patched 6.1 fsc warm, 4 readers / stock 6.12 the same", 1.0,
         ratio(median(patched, "fsc-warm-4"), median(new, "fsc-warm-4"))),
    ]
    # Between kernels, also each kernel's median over the median of the
    # local buffered read of the same boot: the same code in all three
    # kernels, so that a boot that runs faster or slower as a whole under
    # TCG does not count for or against a kernel.
    def normalised(num_kernel, den_kernel, case):
        return ratio(
            ratio(median(num_kernel, case), median(num_kernel, "local-buffered")),
            ratio(median(den_kernel, case), median(den_kernel, "local-buffered")))

    between = {  # by position in targets
        0: normalised(patched, new, "fsc-warm"),
        1: normalised(patched, stock, "fsc-warm"),
        5: normalised(patched, stock, "nofsc"),
        6: normalised(patched, new, "fsc-warm-4"),
    }
    lines += ["", "| target (ratio of medians) | wanted | measured | "
              "normalised by each boot's local buffered read | |",
              "|---|---|---|---|---|"]
    for i, (title, wanted, got) in enumerate(targets):
        shown = "-" if got is None else f"{got:.2f}"
        norm = between.get(i)
        norm = "" if i not in between else ("-" if norm is None else f"{norm:.2f}")
        if wanted is None:
            lines.append(f"| {title} | | {shown} | {norm} | |")
            continue
        verdict = "-" if got is None else ("met" if got >= wanted else "missed")
        lines.append(f"| {title} | >= {wanted} | {shown} | {norm} | {verdict} |")

    # The profiles: each case's busiest symbols, the kernels side by side.
    for case in dict.fromkeys(c for k in kernels for c in profiles[k]):
        shown = [k for k in kernels if case in profiles[k]]
        lines += ["", f"Profile of {case} (perf, cpu-clock, all CPUs, "
                  f"self time; the top {PROFILE_TOP}):", "",
                  "| " + " | ".join(shown) + " |",
                  "|" + "---|" * len(shown)]
        for i in range(min(PROFILE_TOP,
                           max(len(profiles[k][case]) for k in shown))):
            row = []
            for k in shown:
                top = profiles[k][case]
                row.append(f"{top[i][0]} `{top[i][1]}`" if i < len(top) else "")
            lines.append("| " + " | ".join(row) + " |")

    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "results.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))

    # The plot: medians of the sequential cases, one cluster a case.
    data = os.path.join(outdir, "results.dat")
    with open(data, "w", encoding="utf-8") as f:
        f.write("case " + " ".join(kernels) + "\n")
        for case in SEQUENTIAL:
            f.write(case + " " + " ".join(
                f"{median(k, case) or 0:.1f}" for k in kernels) + "\n")
    columns = ", ".join(
        f"'{data}' using {i + 2}:xtic(1) title columnheader({i + 2})"
        for i in range(len(kernels)))
    script = f"""set terminal png size 1100,500
set output '{os.path.join(outdir, "results.png")}'
set title 'Sequential 1 MiB reads of 256 MiB files (median MiB/s, QEMU TCG)'
set style data histograms
set style histogram clustered gap 1
set style fill solid border -1
set ylabel 'MiB/s'
set yrange [0:*]
set key top left
set xtics rotate by -20
plot {columns}
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
