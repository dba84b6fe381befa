#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the timeline `make host-trace-check` draws of tests/guest/host_trace.

Usage: check_host_timeline.py timeline.json timeline.svg

The JSON must load in python3's json module and hold: host tracks for the
program's two streams named after their mapping ("host: stream N (prio P
-> dev D, ch C)", on distinct channels), slices of its calls (two 96 KiB
copies in four chunks, the 8 KiB copy, the saxpy launch, the waits), and one
flow per copy chunk the program submitted (4 + 4 + 1, and one for the
module's image) from the host track to the start of a copy slice of the
same channel on the device.  The SVG must parse as XML and show the host
lanes.  Prints how far after its submission each chunk started.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def main():
    d = json.load(open(sys.argv[1]))
    ev = d['traceEvents']
    names = {(e['pid'], e['tid']): e['args']['name'] for e in ev
             if e['ph'] == 'M' and e['name'] == 'thread_name'}
    streams = {}
    for key, name in names.items():
        m = re.match(r'host: stream (\d+) \(prio (\d+) \u2192 dev (\d+), ch (\d+)\)$', name)
        if m:
            streams[key] = tuple(int(g) for g in m.groups())
    chans = {s[3] for s in streams.values() if s[0] != 0}
    assert len(chans) == 2, ('two streams on two channels', streams)

    host = [e for e in ev if e['ph'] == 'X' and e.get('cat') == 'host']
    by_name = lambda p: [e for e in host if e['name'].startswith(p)]
    assert len(by_name('copy 96 KiB')) == 2, host
    assert all('(4 chunks)' in e['name'] for e in by_name('copy 96 KiB'))
    assert len(by_name('copy 8 KiB host \u2192 host (1 chunk)')) == 1
    assert len(by_name('launch saxpy grid 8,1,1 cta 8,1,1')) == 1
    assert len(by_name('event 2 synchronize')) == 2
    assert by_name('stream synchronize')
    for e in host:
        assert (e['pid'], e['tid']) in names, e

    # device copy slices: where each flow must end
    starts = {}
    for e in ev:
        if e['ph'] == 'X' and e.get('cat') == 'copy':
            n = names.get((e['pid'], e['tid']), '')
            m = re.match(r'channel (\d+) .*work$', n)
            if m:
                starts.setdefault(int(m.group(1)), set()).add(e['ts'])
    s = {e['id']: e for e in ev if e['ph'] == 's'}
    f = {e['id']: e for e in ev if e['ph'] == 'f'}
    assert set(s) == set(f), 'every flow has both ends'
    assert len(s) == 10, ('flows: 4 + 4 chunks, the high copy, the module', len(s))
    gaps = []
    for i, a in s.items():
        b = f[i]
        assert names[(a['pid'], a['tid'])].startswith('host: stream'), a
        m = re.match(r'channel (\d+) ', names[(b['pid'], b['tid'])])
        assert m and b['ts'] in starts.get(int(m.group(1)), ()), ('flow to no copy start', b)
        ch = int(m.group(1))
        src = streams.get((a['pid'], a['tid']))
        assert src and src[3] == ch, ('flow to another channel than its stream', src, ch)
        gaps.append(b['ts'] - a['ts'])
    gaps.sort()

    root = ET.parse(sys.argv[2]).getroot()
    text = [t.text or '' for t in root.iter('{http://www.w3.org/2000/svg}text')]
    assert any(t.startswith('host: stream') for t in text), 'SVG without host lanes'
    assert any(t.startswith('host: thread') for t in text)
    print('host timeline ok: %d host tracks, %d host slices, %d flows; chunk start after '
          'its submission: min %d, median %d, max %d cycles'
          % (sum(1 for n in names.values() if n.startswith('host: ')), len(host), len(s),
             gaps[0], gaps[len(gaps) // 2], gaps[-1]))


if __name__ == '__main__':
    main()
