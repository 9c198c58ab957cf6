//! The rust `plist` crate's side of the benchmark protocol (Benchmarks/README.md).
//!   rust_plist_bench OP FORMAT FILE ITERS     OP: decode | encode
//! Decode: `Value::from_reader_xml` (xml) or `Value::from_reader` on a `Cursor`
//! (binary; it reads the binary format's magic and uses the binary reader; the
//! crate's `BinaryReader` itself is public only behind an unstable feature).
//! Encode: the documents are decoded beforehand, untimed, then
//! `to_writer_binary` / `to_writer_xml` into a `Vec<u8>`. Same JSON line as
//! plistkit-bench.
use plist::Value;
use std::io::Cursor;
use std::process::exit;
use std::time::Instant;

fn u32le(bytes: &[u8], offset: usize) -> usize {
    u32::from_le_bytes([bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]]) as usize
}

/// FILE's documents: a "PLPACK01" pack (u32 LE count, then count × (u32 LE
/// length, bytes)) or one document.
fn documents(bytes: &[u8]) -> Vec<&[u8]> {
    if bytes.len() < 12 || &bytes[..8] != b"PLPACK01" {
        return vec![bytes];
    }
    let count = u32le(bytes, 8);
    let mut offset = 12;
    let mut result = Vec::with_capacity(count);
    for _ in 0..count {
        let length = u32le(bytes, offset);
        result.push(&bytes[offset + 4..offset + 4 + length]);
        offset += 4 + length;
    }
    result
}

fn decode(document: &[u8], xml: bool, index: usize) -> Value {
    // Value::from_reader would read an XML document too: FORMAT binary must be binary.
    if !xml && !document.starts_with(b"bplist00") {
        eprintln!("rust plist could not read document {}: not a binary plist (no bplist00 header)", index);
        exit(1);
    }
    let result = if xml {
        Value::from_reader_xml(document)
    } else {
        Value::from_reader(Cursor::new(document))
    };
    result.unwrap_or_else(|error| {
        eprintln!("rust plist could not read document {}: {}", index, error);
        exit(1)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: rust_plist_bench decode|encode binary|xml FILE ITERS");
        exit(2);
    }
    let (op, format, file) = (args[1].as_str(), args[2].as_str(), args[3].as_str());
    let iterations: usize = match args[4].parse() {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("rust_plist_bench: ITERS must be a positive integer");
            exit(2)
        }
    };
    let encode = match op {
        "decode" => false,
        "encode" => true,
        _ => {
            eprintln!("rust_plist_bench: unsupported op {}", op);
            exit(2)
        }
    };
    let xml = match format {
        "binary" => false,
        "xml" => true,
        _ => {
            eprintln!("rust_plist_bench: unsupported format {}", format);
            exit(2)
        }
    };
    let bytes = std::fs::read(file).unwrap_or_else(|error| {
        eprintln!("{}: {}", file, error);
        exit(1)
    });
    let docs = documents(&bytes);
    let trees: Vec<Value> = if encode {
        docs.iter().enumerate().map(|(i, d)| decode(d, xml, i)).collect()
    } else {
        Vec::new()
    };

    let mut times = Vec::with_capacity(iterations);
    let mut out_bytes = 0usize;
    for round in 0..=iterations {
        // round 0: warm-up. Each iteration's outputs stay alive until its clock stops.
        let start = Instant::now();
        let total;
        let elapsed;
        if encode {
            let mut outputs: Vec<Vec<u8>> = Vec::with_capacity(trees.len());
            for (i, tree) in trees.iter().enumerate() {
                let mut out = Vec::new();
                let result = if xml { tree.to_writer_xml(&mut out) } else { tree.to_writer_binary(&mut out) };
                if let Err(error) = result {
                    eprintln!("rust plist could not write document {}: {}", i, error);
                    exit(1);
                }
                outputs.push(out);
            }
            elapsed = start.elapsed().as_secs_f64();
            total = outputs.iter().map(|o| o.len()).sum();
            drop(outputs);
        } else {
            let mut decoded: Vec<Value> = Vec::with_capacity(docs.len());
            for (i, d) in docs.iter().enumerate() {
                decoded.push(decode(d, xml, i));
            }
            elapsed = start.elapsed().as_secs_f64();
            total = 0;
            drop(decoded);
        }
        if round == 0 {
            out_bytes = total;
        } else {
            times.push(elapsed);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = times.len();
    let median = if n % 2 == 1 { times[n / 2] } else { (times[n / 2 - 1] + times[n / 2]) / 2.0 };
    let name = file.rsplit('/').next().unwrap_or(file);
    // The file name is printed as a JSON string (escaped like the other peers: not at all
    // for the corpus's plain names; quotes and backslashes escaped here for safety).
    let name = name.replace('\\', "\\\\").replace('"', "\\\"");
    println!(
        "{{\"peer\":\"rust-plist\",\"op\":\"{}\",\"format\":\"{}\",\"file\":\"{}\",\"iters\":{},\"messages\":{},\"bytes\":{},\
         \"median_s\":{:.9e},\"min_s\":{:.9e},\"max_s\":{:.9e},\"out_bytes\":{}}}",
        op,
        format,
        name,
        iterations,
        docs.len(),
        bytes.len(),
        median,
        times[0],
        times[n - 1],
        out_bytes
    );
}
