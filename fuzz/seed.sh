#!/usr/bin/env bash
# Seeds the fuzz corpora with the bundled samples and the real traces made by
# others in ../shared/data (where it is there; first 64 KiB of each, the
# fuzzers' input size limit) plus small hand-written cases.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")"
mkdir -p corpus/btf corpus/ftrace corpus/corera_log corpus/amalthea corpus/psf corpus/systemview corpus/ctf
S=../../shared/data
for f in $S/traces/btf/*.btf ../tests/data/btf/*.btf; do head -c 65536 "$f" > "corpus/btf/$(basename "$f")"; done
for f in $S/traces/ftrace/*.txt; do head -c 65536 "$f" > "corpus/ftrace/$(basename "$f")"; done
head -c 65536 ../samples/printer/printer.log > corpus/corera_log/printer.log
for f in $S/amalthea/*.amxmi; do head -c 65536 "$f" > "corpus/amalthea/$(basename "$f")"; done
# Nesting without end (issue 33: a located error, not a stack overflow).
{ printf '<?xml version="1.0"?>\n<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/1.0.0">\n'; for _ in $(seq 3000); do printf '<swModel>'; done; } > corpus/amalthea/deep-nesting.amxmi
{ printf 'struct deep '; for _ in $(seq 3000); do printf '{ struct '; done; printf '\0'; } > corpus/ctf/deep-nesting-metadata
printf 'corera-log 1 clock=ticks rate=1000 prio=low\ntask 1 isr 3 I\nobj q queue\n1 0 ienter 1\n2 0 send 1 q 8 2\n3 0 iexit 1\n' > corpus/corera_log/small.log
for f in ../samples/tracealyzer/*.psf $S/recordings/trace-recorder-parser-fixtures/*/trace.psf; do head -c 65536 "$f" > "corpus/psf/$(basename "$(dirname "$f")")-$(basename "$f")"; done
for f in ../samples/systemview/*.SVDat $S/recordings/esp-idf-sysview/*/*.svdat $S/recordings/others/*.SVDat; do head -c 65536 "$f" > "corpus/systemview/$(basename "$(dirname "$f")")-$(basename "$f")"; done
# CTF: the Zephyr sample's stream under its own metadata (the target's default), and metadata + NUL + stream.
head -c 65536 ../samples/zephyr-ctf/printer/channel0_0 > corpus/ctf/zephyr-channel0_0
{ cat ../samples/zephyr-ctf/printer/metadata; printf '\0'; head -c 32768 ../samples/zephyr-ctf/printer/channel0_0; } > corpus/ctf/zephyr-with-metadata
