#!/usr/bin/env python3
"""junit-agrees.py FILE LINE: whether report.py's JUnit file FILE holds as
many cases, failures and skips as its last line, LINE, says."""

import re
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
said = {kind: int(n) for n, kind in re.findall(r'(\d+) (passed|failed|skipped)', sys.argv[2])}
cases = len(root.findall('./testsuite/testcase'))
failures = len(root.findall('./testsuite/testcase/failure'))
skips = len(root.findall('./testsuite/testcase/skipped'))
want = (sum(said.values()), said.get('failed', 0), said.get('skipped', 0))
if (cases, failures, skips) != want:
    sys.exit(f'JUnit: {cases} cases, {failures} failures, {skips} skips; the last line: {sys.argv[2]}')
