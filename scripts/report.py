#!/usr/bin/env python3
"""Read one test run's logs and say how it went.

report.py OBJDIR SUITES: OBJDIR/console.log, when the first boot was made,
holds the kernel's console (the KUnit suites' KTAP among it), OBJDIR/ktap.log the guest tests' KTAP, and
OBJDIR/failure.log, when there, why the boot ended early (scripts/qemu.sh:
a timeout, a QEMU that failed); the *-after-reboot.log,
*-debian-policy.log and *-cluster-ROLE.log files, when there, the same of
the later boots (the cluster's three machines a boot each).  The
KTAP is parsed with the kernel tree's kunit_parser, which prints each
suite.  The run fails on a failed or crashed case, a suite of SUITES that
never reported, a boot that ended early, a splat in a console, an SELinux
denial that no test said it provokes, or a guest that never finished its
tests.
The last line printed is "N passed, N failed" (", N skipped" when any).
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.environ.get('LINUX', os.path.join(ROOT, 'build', 'linux')),
                                'tools', 'testing', 'kunit'))
sys.dont_write_bytecode = True  # nothing written into the kernel tree
import kunit_parser  # noqa: E402
from kunit_parser import TestStatus  # noqa: E402

# The boots after the first (scripts/boot.sh), by the suffix of their logs,
# how the report names each, and whose suites their guest KTAP holds: the
# guest tests ("guest:NAME" in tests/suites), or a cluster client's own
# ("client-a:NAME").
LATER_BOOTS = [('after-reboot', ' after the reboot', 'guest'),
               ('debian-policy', " under Debian's policy", 'guest'),
               ('cluster-server', " of the cluster's server", 'guest'),
               ('cluster-client-a', ' of the cluster\'s client-a', 'client-a'),
               ('cluster-client-b', ' of the cluster\'s client-b', 'client-b')]

# A report in the console that fails the run, whatever the tests said.
# Words, not parts of words: NFS's "SECINFO:" is no INFO: report.
SPLAT = re.compile(r'\bBUG:|\bWARNING:|\bINFO:|Oops|KASAN:|UBSAN:|Kernel panic|'
                   r'possible circular locking|possible recursive locking|'
                   r'inconsistent lock state|lockdep|suspicious RCU usage|'
                   r'rcu.*detected stalls|self-detected stall|'
                   r'general protection fault|unable to handle|'
                   r'unreferenced object 0x|suspected memory leak')
# The debug kernel's kmemleak: a boot that has it must show the guest's
# scan at its end (guest/init); the leaks it finds are splats.
KMEMLEAK_ON = 'kmemleak: Kernel memory leak detector initialized'
KMEMLEAK_SCANNED = re.compile(r'guest: kmemleak: scanned, status 0, ')
GUEST_DONE = 'guest: guest tests ran'
# SELinux denials fail the run, but for those a test said it provokes: it
# writes the two markers to /dev/kmsg around them.
AVC_DENIED = 'avc:  denied'
EXPECT_BEGIN = 'expected AVC denials: begin'
EXPECT_END = 'expected AVC denials: end'


def leaves(test):
    """The test cases under a parsed test, each once."""
    if not test.subtests:
        yield test
    for sub in test.subtests:
        yield from leaves(sub)


def read_lines(objdir, name):
    """The lines of a log, none if it is missing."""
    try:
        with open(os.path.join(objdir, name), errors='replace') as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def avc_denials(lines):
    """The AVC denials of a console, as (expected, unexpected) lists."""
    expected, unexpected = [], []
    inside = False
    for line in lines:
        if EXPECT_BEGIN in line:
            inside = True
        elif EXPECT_END in line:
            inside = False
        elif AVC_DENIED in line:
            (expected if inside else unexpected).append(line)
    return expected, unexpected


def expected_suites(path):
    with open(path) as f:
        return [line.split('#')[0].strip() for line in f
                if line.split('#')[0].strip()]


def main(objdir, suites_file):
    # The first boot, unless the run made only later ones (TESTS): its
    # console holds the KUnit suites.  The boots after the first, when
    # there were some: their guest tests count, their consoles are checked
    # like the first's.
    consoles, logs = [], []
    if os.path.exists(os.path.join(objdir, 'console.log')):
        console = read_lines(objdir, 'console.log')
        consoles.append(('', console))
        logs += [('kernel', console), ('guest', read_lines(objdir, 'ktap.log'))]
    failures = [('', read_lines(objdir, 'failure.log'))]
    for boot, where, origin in LATER_BOOTS:
        if os.path.exists(os.path.join(objdir, f'console-{boot}.log')):
            consoles.append((where, read_lines(objdir, f'console-{boot}.log')))
            logs.append((origin, read_lines(objdir, f'ktap-{boot}.log')))
        failures.append((where, read_lines(objdir, f'failure-{boot}.log')))

    problems = []
    passed = failed = skipped = 0
    # A boot that ended early counts as a failure of its own, named first.
    for where, lines in failures:
        for line in lines:
            failed += 1
            problems.append(f'the boot{where}: {line}')
    reported = set()
    for origin, lines in logs:
        if not any('KTAP version' in line for line in lines):
            problems.append(f'no KTAP from the {origin}')
            continue
        if '1..0' in (line.rstrip() for line in lines):
            # A boot that had none of the guest tests a run named (TESTS):
            # nothing to count, and no error (kunit_parser calls it one).
            continue
        run = kunit_parser.parse_run_tests(lines)
        for suite in run.subtests:
            reported.add(f'{origin}:{suite.name}')
            for case in leaves(suite):
                if case.status == TestStatus.SUCCESS:
                    passed += 1
                elif case.status == TestStatus.SKIPPED:
                    skipped += 1
                else:
                    failed += 1
                    problems.append(f'{origin}:{suite.name}: {case.name or "(a case that never reported)"}: '
                                    f'{case.status.name}')
        if run.counts.errors:
            problems.append(f'{run.counts.errors} KTAP parse error(s) in the {origin} output')

    for suite in expected_suites(suites_file):
        if suite not in reported:
            failed += 1
            problems.append(f'{suite}: never reported')

    for boot, lines in consoles:
        for i, line in enumerate(lines):
            if SPLAT.search(line):
                problems.append(f'splat in the console{boot}:\n  ' + '\n  '.join(lines[i:i + 12]))
                break
        expected, unexpected = avc_denials(lines)
        if expected or unexpected:
            print(f'AVC denials in the console{boot}: {len(expected)} provoked by tests, '
                  f'{len(unexpected)} unexpected')
        for line in unexpected:
            problems.append(f'unexpected AVC denial in the console{boot}: {line}')
        if (any(KMEMLEAK_ON in line for line in lines) and
                not any(KMEMLEAK_SCANNED.match(line) for line in lines)):
            problems.append(f'kmemleak is on but the guest never scanned{boot}')
        if GUEST_DONE not in lines:
            problems.append(f'the guest never finished its tests{boot}; console tail:\n  ' +
                            '\n  '.join(lines[-30:]))

    for p in problems:
        print(f'FAIL: {p}')
    summary = f'{passed} passed, {failed} failed'
    if skipped:
        summary += f', {skipped} skipped'
    print(summary)
    return 1 if problems or failed else 0


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: report.py OBJDIR SUITES-FILE')
    sys.exit(main(sys.argv[1], sys.argv[2]))
