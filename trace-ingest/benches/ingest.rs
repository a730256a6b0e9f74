//! Ingest throughput against `wc -l` on the same file, in the same run.
//!
//! Generates a BTF trace in the FreeRTOS-logger dialect (2 cores, 12 tasks,
//! task switches, queue, semaphore and mutex operations, tick and interval
//! pseudo-events, in the proportions of the real FreeRTOS trace in `../shared/data/traces/btf/`),
//! then times `wc -l` and corera's reader on it, twice each (best of two;
//! the first `wc -l` also warms the page cache).
//!
//! ```console
//! $ cargo bench -p corera-trace-ingest --bench ingest            # 1 GiB
//! $ CORERA_BENCH_MB=100 cargo bench -p corera-trace-ingest --bench ingest
//! ```

use std::io::{BufReader, BufWriter, Write};
use std::time::Instant;

use corera_trace_ingest::{FormatChoice, ReadOptions, read};

fn generate(path: &std::path::Path, bytes: u64) -> std::io::Result<u64> {
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    writeln!(out, "#version 2.2.0\n#creator corera ingest benchmark\n#timeScale us")?;
    let names =
        ["Runner", "Sensor", "Filter", "Control", "Comms", "Logger", "Ui", "Storage", "Motor", "Net", "Audio", "Power"];
    for (i, n) in names.iter().enumerate() {
        writeln!(out, "{},Core_0,0,T,[0/{:04}]{n},0,preempt,create pri:{}", 1000 + i, i + 1, 1 + i % 5)?;
    }
    let mut written = 0u64;
    let mut t = 2_000u64;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut running = [1usize, 2];
    let mut lines = 0u64;
    while written < bytes {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let core = (state & 1) as usize;
        let task = (state >> 8) as usize % names.len() + 1;
        t += 5 + (state >> 20) % 40;
        let prev = running[core];
        let line = match (state >> 32) % 10 {
            0..=3 => {
                running[core] = task;
                format!(
                    "{t},Core_{core},0,T,[{core}/{prev:04}]{},0,preempt,\n{},[{core}/{prev:04}]{},0,T,[{core}/{task:04}]{},0,resume,\n",
                    names[prev - 1],
                    t + 12,
                    names[prev - 1],
                    names[task - 1]
                )
            }
            4 => format!(
                "{t},Core_{core},0,STI,queue,0,trigger,{} 0x8001ce20\n",
                if state & 4 == 0 { "send" } else { "recv" }
            ),
            5 | 6 => format!(
                "{t},Core_{core},0,STI,sem,0,trigger,{} 0x80019d90\n",
                if state & 4 == 0 { "take" } else { "give" }
            ),
            7 => format!(
                "{t},Core_{core},0,STI,mutex,0,trigger,{} 0x80019e40\n",
                if state & 4 == 0 { "take" } else { "give" }
            ),
            8 => format!("{t},Core_{core},0,STI,TICK,0,trigger,{}\n", t / 1000),
            _ => format!("{t},Core_{core},0,STI,interval_start,0,trigger,1 tid:{prev}\n"),
        };
        t += 12;
        lines += line.bytes().filter(|&b| b == b'\n').count() as u64;
        written += line.len() as u64;
        out.write_all(line.as_bytes())?;
    }
    out.flush()?;
    Ok(lines)
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mb: u64 = std::env::var("CORERA_BENCH_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    let dir = std::env::temp_dir().join(format!("corera-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bench.btf");
    let start = Instant::now();
    let lines = generate(&path, mb << 20).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    let size_mb = size as f64 / (1u64 << 20) as f64;
    println!("generated {size_mb:.0} MiB, {lines} lines in {:.1} s", start.elapsed().as_secs_f64());
    let rss_before = peak_rss_kib().unwrap_or(0);
    let mut wc_best = f64::MAX;
    let mut ingest_best = f64::MAX;
    let mut events = 0;
    let mut event_bytes = 0;
    let mut peak = None;
    for _ in 0..2 {
        let t = Instant::now();
        let wc = std::process::Command::new("wc").arg("-l").arg(&path).output().unwrap();
        wc_best = wc_best.min(t.elapsed().as_secs_f64());
        assert!(wc.status.success());
        let t = Instant::now();
        let file = std::fs::File::open(&path).unwrap();
        let parsed =
            read(&mut BufReader::with_capacity(256 * 1024, file), FormatChoice::AUTO, &ReadOptions::new("bench.btf"))
                .unwrap();
        ingest_best = ingest_best.min(t.elapsed().as_secs_f64());
        events = parsed.trace.events.len();
        event_bytes = parsed.trace.events.heap_bytes();
        // The peak of the first read: a second read in the same process
        // starts from a heap the first one left fragmented.
        peak.get_or_insert(peak_rss_kib().unwrap_or(0));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let peak = peak.unwrap_or(0);
    println!("wc -l:          {:8.1} MB/s ({wc_best:.2} s)", size_mb / wc_best);
    println!("corera ingest:  {:8.1} MB/s ({ingest_best:.2} s), {events} events", size_mb / ingest_best);
    println!("ratio ingest / wc -l: {:.2}", wc_best / ingest_best);
    println!(
        "peak RSS: {:.0} MiB ({:.0} MiB before reading) for a {size_mb:.0} MiB file (ratio {:.2}); \
         events take {:.0} MiB ({:.1} B each)",
        peak as f64 / 1024.0,
        rss_before as f64 / 1024.0,
        peak as f64 / 1024.0 / size_mb,
        event_bytes as f64 / (1u64 << 20) as f64,
        event_bytes as f64 / events.max(1) as f64
    );
}
