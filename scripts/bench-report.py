#!/usr/bin/python3
"""Turn make bench's guest output into a table, the targets' ratios and a plot.

usage: bench-report.py OUTDIR KERNEL=BENCH.LOG...

Each log has lines "# case NAME PLOT TITLE" (the cases, in order),
"bench CASE RUN MiB/s" and "# profile CASE SHARE SYMBOL" (guest/bench).  Writes OUTDIR/results.md (median and min per case
and kernel, the issue's targets as ratios of medians, then the busiest
symbols of each profiled case) and OUTDIR/results.png (gnuplot).
"""
import os
import statistics
import subprocess
import sys

PROFILE_TOP = 10


def parse(path):
    """The kernel's version, the cases (name: (plot, title)), the runs by
    case and the profiles by case."""
    cases, runs, profiles, kernel = {}, {}, {}, ""
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            words = line.split()
            if line.startswith("# kernel "):
                kernel = line[len("# kernel "):].strip()
            if len(words) >= 5 and words[:2] == ["#", "case"]:
                cases[words[2]] = (words[3] == "plot", " ".join(words[4:]))
            if len(words) >= 4 and words[:2] == ["#", "profile"]:
                profiles.setdefault(words[2], []).append(
                    (words[3], " ".join(words[4:])))
            if len(words) == 4 and words[0] == "bench" and words[1] != "done,":
                try:
                    runs.setdefault(words[1], []).append(float(words[3]))
                except ValueError:
                    runs.setdefault(words[1], []).append(None)
    return kernel, cases, runs, profiles


def main():
    outdir, specs = sys.argv[1], sys.argv[2:]
    kernels, versions, results, profiles, cases = [], {}, {}, {}, {}
    for spec in specs:
        name, path = spec.split("=", 1)
        kernels.append(name)
        versions[name], its_cases, results[name], profiles[name] = parse(path)
        cases.update(its_cases)
    unknown = {c for k in kernels for c in results[k]
               if c not in cases and not c.startswith("profile-")}
    if unknown:
        sys.exit("bench-report.py: no '# case' line for " +
                 ", ".join(sorted(unknown)))

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
    for case, (_, title) in cases.items():
        lines.append(f"| {title} | " +
                     " | ".join(cell(k, case) for k in kernels) + " |")
    lines.append("")
    lines.append("Runs per case: " + ", ".join(
        f"{k} {len(runs(k, 'fsc-warm'))}" for k in kernels) + ".")
    lines.append("")
    for k in kernels:
        lines.append(f"- {k}: {versions[k]}")

    # The kernels the targets compare (BENCH_KERNEL_NAMES, scripts/common.sh).
    patched, stock, new = "patched-6.1", "stock-6.1", "stock-6.12"

    def ratio(num, den):
        if num is None or den is None or den == 0:
            return None
        return num / den

    # The better of the local reads, buffered and O_DIRECT, as a case.
    def value(kernel, case):
        if case == "local-limit":
            local = [median(kernel, c) for c in ("local-buffered", "local-direct")]
            return max((v for v in local if v is not None), default=None)
        return median(kernel, case)

    # Each target: a title, the ratio wanted (None: for information), and
    # the (kernel, case) over the (kernel, case) it compares.
    targets = [
        ("patched 6.1 fsc warm / stock 6.12 fsc warm", 1.0,
         (patched, "fsc-warm"), (new, "fsc-warm")),
        ("patched 6.1 fsc warm / stock 6.1 fsc warm (for information)", None,
         (patched, "fsc-warm"), (stock, "fsc-warm")),
        ("patched 6.1 fsc warm / local limit (better of buffered, O_DIRECT)",
         0.9, (patched, "fsc-warm"), (patched, "local-limit")),
        ("patched 6.1 fsc warm / local buffered read (for information)",
         None, (patched, "fsc-warm"), (patched, "local-buffered")),
        ("patched 6.1 fsc cold / patched 6.1 no fsc", 0.9,
         (patched, "fsc-cold"), (patched, "nofsc")),
        ("patched 6.1 no fsc / stock 6.1 no fsc", 0.97,
         (patched, "nofsc"), (stock, "nofsc")),
        ("patched 6.1 fsc warm, 4 readers / stock 6.12 the same", 1.0,
         (patched, "fsc-warm-4"), (new, "fsc-warm-4")),
    ]

    # Between kernels, also each kernel's median over the median of the
    # local buffered read of the same boot: the same code in all three
    # kernels, so that a boot that runs faster or slower as a whole under
    # TCG does not count for or against a kernel.
    def normalised(kernel, case):
        return ratio(value(kernel, case), value(kernel, "local-buffered"))

    lines += ["", "| target (ratio of medians) | wanted | measured | "
              "normalised by each boot's local buffered read | |",
              "|---|---|---|---|---|"]
    for title, wanted, num, den in targets:
        got = ratio(value(*num), value(*den))
        shown = "-" if got is None else f"{got:.2f}"
        norm = ""
        if num[0] != den[0]:
            norm = ratio(normalised(*num), normalised(*den))
            norm = "-" if norm is None else f"{norm:.2f}"
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
        for case in (c for c, (plot, _) in cases.items() if plot):
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
