#!/usr/bin/env python3
"""make fstests' table and verdict (scripts/fstests.sh).

    fstests-report.py EXPECTED LIST SECTIONS TABLE KERNEL=DIR...

LIST is the list of tests run (guest/fstests/), SECTIONS the sections of
guest/fstests/local.config run, comma-separated.  Each DIR holds one
kernel's fstests results, a directory a section (fstests' result.xml, else
check.log).  Writes TABLE, a Markdown table of each test by kernel and
section (pass, fail, notrun, or "-" when check did not get to it), with
each section's time.  Judges the first KERNEL, the patched one: a test
fails when check did not run it in every section, or when, in a section
with fsc, it does other than pass where it passes without fsc (the
section of the same name ending in "_nofsc") or where the other kernels
pass it, unless EXPECTED lists it ("SECTION TEST REASON", SECTION "*"
for every one).  Prints a line per test and ends with "N passed, N
failed".
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

SECTION_ORDER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             '..', 'guest', 'fstests', 'local.config')


def section_order():
    with open(SECTION_ORDER) as f:
        return re.findall(r'^\[(.+)\]$', f.read(), re.M)


def read_list(path):
    with open(path) as f:
        return [w for line in f for w in line.split('#', 1)[0].split()]


def read_section(path):
    """{test: result} and the section's time in seconds (or None)."""
    results, seconds = {}, None
    xml = os.path.join(path, 'result.xml')
    try:
        suite = ET.parse(xml).getroot()
    except (OSError, ET.ParseError):
        # fstests writes a failure's message into the XML unescaped.
        suite = None
    if suite is not None:
        seconds = suite.get('time')
        for case in suite.iter('testcase'):
            if case.find('failure') is not None or case.find('error') is not None:
                results[case.get('name')] = 'fail'
            elif case.find('skipped') is not None:
                results[case.get('name')] = 'notrun'
            else:
                results[case.get('name')] = 'pass'
        return results, seconds
    log = os.path.join(path, 'check.log')
    if os.path.exists(log):
        lists = {}
        with open(log) as f:
            for line in f:
                key, _, rest = line.partition(':')
                lists[key] = rest.split()
        for test in lists.get('Ran', []):
            results[test] = 'pass'
        for test in lists.get('Not run', []):
            results[test] = 'notrun'
        for test in lists.get('Failures', []):
            results[test] = 'fail'
    return results, seconds


def read_expected(path):
    expected = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    section, test, reason = (line.split(None, 2) + [''])[:3]
                    if not reason:
                        sys.exit(f'{path}: "{line}" gives no reason')
                    expected[(section, test)] = reason
    return expected


def main(expected_path, list_path, sections, table_path, kernels):
    order = [s for s in section_order() if s in sections.split(',')]
    runs = {}  # (kernel, section) -> ({test: result}, seconds)
    names = []
    for arg in kernels:
        kernel, _, path = arg.partition('=')
        names.append(kernel)
        for section in order:
            if os.path.isdir(os.path.join(path, section)):
                runs[(kernel, section)] = read_section(os.path.join(path, section))
    columns = [(k, s) for k in names for s in order]
    tests = sorted(set(read_list(list_path)) |
                   {t for results, _ in runs.values() for t in results})

    def result(kernel, section, test):
        run = runs.get((kernel, section))
        return run[0].get(test, '-') if run else '-'

    with open(table_path, 'w') as out:
        out.write('| test | ' + ' | '.join(f'{k} {s}' for k, s in columns) + ' |\n')
        out.write('|---' * (len(columns) + 1) + '|\n')
        for test in tests:
            out.write(f'| {test} | ' +
                      ' | '.join(result(k, s, test) for k, s in columns) + ' |\n')
        out.write('| time (s) | ' + ' | '.join(
            (runs[c][1] if c in runs else None) or '?' for c in columns) + ' |\n')

    expected = read_expected(expected_path)
    patched, others = names[0], names[1:]
    passed = failed = 0
    for test in tests:
        why = []
        for section in order:
            got = result(patched, section, test)
            if got == '-':
                why.append(f'not run in {section}')
            if not section.endswith('_fsc') or got in ('pass', '-'):
                continue
            base = section[:-len('_fsc')] + '_nofsc'
            worse = []
            if result(patched, base, test) == 'pass':
                worse.append(f'{section} {got}, {base} pass')
            for other in others:
                if result(other, section, test) == 'pass':
                    worse.append(f'{section} {got}, {other} {section} pass')
            reason = expected.get((section, test)) or expected.get(('*', test))
            if worse and reason:
                print(f'# {test}: {"; ".join(worse)}: expected ({reason})')
            else:
                why += worse
        if why:
            failed += 1
            print(f'not ok {passed + failed} {test} # {"; ".join(why)}')
        else:
            passed += 1
            print(f'ok {passed + failed} {test}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed or not tests else 0


if __name__ == '__main__':
    if len(sys.argv) < 6:
        sys.exit('usage: fstests-report.py EXPECTED LIST SECTIONS TABLE KERNEL=DIR...')
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]))
