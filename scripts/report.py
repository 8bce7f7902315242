#!/usr/bin/env python3
"""Read one test run's logs and say how it went.

report.py OBJDIR SUITES: the logs in OBJDIR of each boot of guest/boots
that the run made (scripts/common.sh boot_log names them): its console
(console.log for the first boot, console-BOOT.log for the others; the
KUnit suites' KTAP among it), the KTAP of what the guest ran (ktap.log,
ktap-BOOT.log), and, when there, why the boot ended early (failure.log,
failure-BOOT.log: scripts/qemu.sh, a timeout, a QEMU that failed).  The
KTAP is parsed with the kernel tree's kunit_parser, which prints each
suite.  The skips file beside SUITES lists the cases allowed to skip, each
with its reason.

Each of these is one failure, named: a failed or crashed case; a test that
failed on its own after its cases passed (a guest test's exit status); a
skip the skips file does not allow; a suite of SUITES that never reported;
and, of each boot, an early end, a splat in its console, an SELinux denial
that no test said it provokes, an expected-denial window a test left open,
a kmemleak that never scanned, a guest that never finished its tests or
never powered off, KTAP missing or unparsable.  The last line printed is
"N passed, N failed" (", N skipped" when any), and the exit status is 1
exactly when N failed is not 0.  With --junit FILE, the same as JUnit XML
in FILE: one test case a case or failure, each under its boot.
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.environ.get('LINUX', os.path.join(ROOT, 'build', 'linux')),
                                'tools', 'testing', 'kunit'))
sys.dont_write_bytecode = True  # nothing written into the kernel tree
import kunit_parser  # noqa: E402
from kunit_parser import TestStatus  # noqa: E402



def read_markers(path):
    """The NAME='VALUE' lines of guest/lib/markers.sh: the lines the guest
    writes that the host looks for."""
    with open(path) as f:
        return dict(re.findall(r"^([A-Z_]+)='(.*)'$", f.read(), re.MULTILINE))


def read_boots(path):
    """The rows of guest/boots, each a dict by the names of the columns
    (its "# name ..." line), in order."""
    columns, rows = None, []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:2] == ['#', 'name']:
                columns = words[1:]
            elif words and not line.startswith('#'):
                rows.append(dict(zip(columns, words)))
    return rows


MARKERS = read_markers(os.path.join(ROOT, 'guest', 'lib', 'markers.sh'))
# The boots of a test run (guest/boots; the benchmark's are no test run's).
# Each is named in the report as its failures are (first-boot:splat); its
# logs are named after it, the first's with no suffix.
BOOTS = [row for row in read_boots(os.path.join(ROOT, 'guest', 'boots')) if row['step'] != 'bench']


def log_name(kind, boot):
    """A boot's log: console, ktap or failure (scripts/common.sh boot_log)."""
    return f'{kind}.log' if boot == BOOTS[0]['name'] else f'{kind}-{boot}.log'


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
KMEMLEAK_SCANNED = MARKERS['KMEMLEAK_SCANNED'] + ' 0, '
GUEST_DONE = MARKERS['GUEST_DONE']
RUNNING_TEST = MARKERS['RUNNING_TEST']
# The kernel's last line when the guest powers off as it should.
POWER_DOWN = 'reboot: Power down'
# SELinux denials fail the run, but for those a test said it provokes: it
# writes the two markers to /dev/kmsg around them.
AVC_DENIED = MARKERS['AVC_DENIED']
EXPECT_BEGIN = MARKERS['EXPECT_BEGIN']
EXPECT_END = MARKERS['EXPECT_END']


class Tally:
    """What a run came to: cases passed, skipped (allowed by the skips
    file), and failures, each named; every problem is one failure."""

    def __init__(self, allowed_skips):
        self.passed = 0
        self.skipped = 0
        self.failures = []
        self.allowed_skips = allowed_skips
        # Every case and every failure, for the results file: (the boot
        # whose logs it came from, or "run"; its name; its outcome, "pass",
        # "skip" or "fail"; what failed).
        self.boot = 'run'
        self.results = []

    def fail(self, name, detail):
        self.failures.append(f'{name}: {detail}')
        self.results.append((self.boot, name, 'fail', detail))

    def count(self, origin, suite):
        """Count the cases of one suite (a KUnit suite, or a guest test)."""
        self._count(f'{origin}:{suite.name}', suite)

    def _count(self, path, test):
        """Count a test's cases; True when one of them failed."""
        if not test.subtests:
            return self._leaf(path, test)
        failed_below = False
        for sub in test.subtests:
            name = f'{path}: {sub.name or "(a case that never reported)"}'
            failed_below |= self._count(name, sub)
        # A test whose cases all passed or skipped, and which failed on its
        # own: a guest test's exit status (killed, a bail after its last
        # case, its cleanup), a suite's own "not ok".
        if not failed_below and test.status not in (TestStatus.SUCCESS, TestStatus.SKIPPED):
            tail = '; '.join(line.strip() for line in test.log[-3:])
            self.fail(path, f'its cases passed, the test itself {test.status.name}'
                      + (f' ({tail})' if tail else ''))
            return True
        return failed_below

    def _leaf(self, path, case):
        if case.status == TestStatus.SUCCESS:
            self.passed += 1
            self.results.append((self.boot, path, 'pass', ''))
        elif case.status == TestStatus.SKIPPED and path in self.allowed_skips:
            self.skipped += 1
            self.results.append((self.boot, path, 'skip', self.allowed_skips[path]))
        elif case.status == TestStatus.SKIPPED:
            self.fail(path, 'SKIPPED, and no line of the skips file allows it')
        else:
            self.fail(path, case.status.name)
        return case.status not in (TestStatus.SUCCESS, TestStatus.SKIPPED)

    def summary(self):
        line = f'{self.passed} passed, {len(self.failures)} failed'
        if self.skipped:
            line += f', {self.skipped} skipped'
        return line


def read_lines(objdir, name):
    """The lines of a log, none if it is missing."""
    try:
        with open(os.path.join(objdir, name), errors='replace') as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def check_avc(tally, boot, lines):
    """Denials outside a test's expected window fail the run, and so does a
    window left open: a window ends with the test that opened it."""
    expected = unexpected = 0
    window = None  # the line that opened the window
    test = 'the boot before its tests'
    for line in lines:
        if line.startswith(RUNNING_TEST) or line == GUEST_DONE:
            if window:
                tally.fail(f'{boot}:avc-window', f'{test} left its window open: {window}')
                window = None
            if line.startswith(RUNNING_TEST):
                test = line[len(RUNNING_TEST):].strip()
        elif EXPECT_BEGIN in line:
            window = line
        elif EXPECT_END in line:
            window = None
        elif AVC_DENIED in line and window:
            expected += 1
        elif AVC_DENIED in line:
            unexpected += 1
            tally.fail(f'{boot}:avc', f'unexpected AVC denial: {line}')
    if window:
        tally.fail(f'{boot}:avc-window', f'{test} left its window open: {window}')
    if expected or unexpected:
        print(f'AVC denials in the console of {boot}: {expected} provoked by tests, '
              f'{unexpected} unexpected')


# The time a kernel with CONFIG_PRINTK_TIME (Debian's own) puts before
# each of its lines.
PRINTK_TIME = re.compile(r'^\[ *[0-9]+\.[0-9]+\] ')


def check_console(tally, boot, lines, ended_early):
    """The problems a boot's console shows, each a failure of the boot."""
    lines = [PRINTK_TIME.sub('', line) for line in lines]
    for i, line in enumerate(lines):
        if SPLAT.search(line):
            tally.fail(f'{boot}:splat', '\n  ' + '\n  '.join(lines[i:i + 12]))
            break
    # A Debian system's denials go to auditd, and its tests check them.
    if next(row for row in BOOTS if row['name'] == boot)['selinux'] != 'system':
        check_avc(tally, boot, lines)
    if (any(KMEMLEAK_ON in line for line in lines) and
            not any(line.startswith(KMEMLEAK_SCANNED) for line in lines)):
        tally.fail(f'{boot}:kmemleak', 'kmemleak is on but the guest never scanned')
    if GUEST_DONE not in lines:
        tally.fail(f'{boot}:unfinished', 'the guest never finished its tests; console tail:\n  ' +
                   '\n  '.join(lines[-30:]))
    elif POWER_DOWN not in lines and not ended_early:
        # A panic or a triple fault after the tests: QEMU exits 0 all the same.
        tally.fail(f'{boot}:no-power-off', 'the guest finished its tests but never powered off; '
                   'console tail:\n  ' + '\n  '.join(lines[-12:]))


def count_ktap(tally, boot, origin, lines):
    """Count a boot's KTAP from one origin: the kernel's KUnit suites, or
    the guest tests.  Returns the suites it reported."""
    if not any('KTAP version' in line for line in lines):
        tally.fail(f'{boot}:no-ktap', f'no KTAP from the {origin}')
        return set()
    if '1..0' in (line.rstrip() for line in lines):
        # A boot that had none of the guest tests a run named (TESTS):
        # nothing to count, and no error (kunit_parser calls it one).
        return set()
    run = kunit_parser.parse_run_tests(lines)
    for suite in run.subtests:
        tally.count(origin, suite)
    if run.counts.errors:
        tally.fail(f'{boot}:ktap', f'{run.counts.errors} KTAP parse error(s) in the {origin} output')
    return {f'{origin}:{suite.name}' for suite in run.subtests}


def expected_suites(path):
    """The suites file's names, comments and blank lines left out."""
    with open(path) as f:
        return [line.split('#')[0].strip() for line in f if line.split('#')[0].strip()]


def allowed_skips(path):
    """The skips file: "ORIGIN:SUITE: CASE  # REASON" a line.  A line that
    gives no reason allows nothing."""
    allowed, unexplained = {}, []
    try:
        with open(path) as f:
            for line in f:
                name, _, reason = line.partition('#')
                if name.strip() and reason.strip():
                    allowed[name.strip()] = reason.strip()
                elif name.strip():
                    unexplained.append(name.strip())
    except FileNotFoundError:
        pass
    return allowed, unexplained


# Characters XML 1.0 cannot hold: the control characters but tab, newline
# and carriage return (a Debian system's console has systemd's colour
# escapes).
NOT_XML = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f]')


def xml_text(text):
    """TEXT with what XML cannot hold shown as "?"."""
    return NOT_XML.sub('?', text)


def write_junit(tally, path):
    """The run as JUnit XML, for CI systems: a test suite a boot (and "run"
    for what no boot's logs said, a suite that never reported), a test case
    a case or a failure, in the order of the report."""
    root = ET.Element('testsuites', name='credrec', tests=str(len(tally.results)),
                      failures=str(len(tally.failures)), skipped=str(tally.skipped))
    suites = {}
    for boot, name, outcome, detail in tally.results:
        if boot not in suites:
            suites[boot] = ET.SubElement(root, 'testsuite', name=boot)
        case = ET.SubElement(suites[boot], 'testcase', classname=boot, name=name)
        if outcome == 'fail':
            ET.SubElement(case, 'failure',
                          message=xml_text(detail.strip().split('\n')[0])).text = xml_text(detail)
        elif outcome == 'skip':
            ET.SubElement(case, 'skipped', message=xml_text(detail))
    for boot, suite in suites.items():
        outcomes = [r[2] for r in tally.results if r[0] == boot]
        suite.set('tests', str(len(outcomes)))
        suite.set('failures', str(outcomes.count('fail')))
        suite.set('skipped', str(outcomes.count('skip')))
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding='utf-8', xml_declaration=True)


def main(objdir, suites_file, junit=None):
    skips, unexplained = allowed_skips(os.path.join(os.path.dirname(suites_file), 'skips'))
    tally = Tally(skips)
    for name in unexplained:
        tally.fail('skips', f'"{name}" is allowed to skip with no reason given')
    # The boots the run made: their consoles are checked, the KTAP of
    # their suites counted (the KUnit suites' in the console, the others'
    # in the ktap log).  A boot that ended early counts as a failure of its
    # own, named first.
    boots = []
    for row in BOOTS:
        boot = row['name']
        logs = [(origin, log_name('console' if origin == 'kernel' else 'ktap', boot))
                for origin in row['reports'].split(',') if origin != '-']
        boots.append((boot, log_name('console', boot), log_name('failure', boot), logs))
    reported = set()
    made = []
    for boot, console, failure, logs in boots:
        tally.boot = boot
        ended_early = read_lines(objdir, failure)
        for line in ended_early:
            tally.fail(f'{boot}:ended-early', line)
        if os.path.exists(os.path.join(objdir, console)):
            made.append((boot, read_lines(objdir, console), ended_early))
            for origin, log in logs:
                reported |= count_ktap(tally, boot, origin, read_lines(objdir, log))

    tally.boot = 'run'
    for suite in expected_suites(suites_file):
        if suite not in reported:
            tally.fail(suite, 'never reported')

    for boot, lines, ended_early in made:
        tally.boot = boot
        check_console(tally, boot, lines, ended_early)
    if junit:
        write_junit(tally, junit)

    for failure in tally.failures:
        print(f'FAIL: {failure}')
    print(tally.summary())
    return 1 if tally.failures else 0


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[3] == '--junit':
        sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[4]))
    if len(sys.argv) != 3:
        sys.exit('usage: report.py OBJDIR SUITES-FILE [--junit FILE]')
    sys.exit(main(sys.argv[1], sys.argv[2]))
