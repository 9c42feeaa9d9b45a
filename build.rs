//! Build script: finds magic numbers for the rook and bishop slider tables
//! with a fixed-seed generator and writes the tables as Rust source, and
//! records the git commit of the build for `fission --version`
//! ([`git_commit`]).
//!
//! The search is deterministic (xorshift64* from a fixed seed), so every build
//! produces the same magics and the same tables. It takes well under a second
//! with optimisations (see `[profile.*.build-override]` in Cargo.toml).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

// The slider directions, shared with the crate (`attacks::directions`).
#[allow(dead_code)]
mod directions {
    include!("src/attacks/directions.rs");
}

const fn widen(d: [(i8, i8); 4]) -> [(i32, i32); 4] {
    let mut out = [(0, 0); 4];
    let mut i = 0;
    while i < 4 {
        out[i] = (d[i].0 as i32, d[i].1 as i32);
        i += 1;
    }
    out
}

const ROOK_DIRS: [(i32, i32); 4] = widen(directions::ORTHOGONAL);
const BISHOP_DIRS: [(i32, i32); 4] = widen(directions::DIAGONAL);

/// Fixed seed: changing it changes the magics (and nothing else observable).
const SEED: u64 = 0x5EED_F155_1014_2026;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Slow ray walk: the attack set of a slider on `sq` given `occ`.
fn ray_attacks(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let s = (r * 8 + f) as u64;
            att |= 1 << s;
            if occ & (1 << s) != 0 {
                break;
            }
        }
    }
    att
}

/// Relevant occupancy mask: the rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            mask |= 1 << (r * 8 + f);
        }
    }
    mask
}

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate all subsets of the mask (Carry-Rippler).
        let mut occs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push((sub, ray_attacks(sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let ok = occs.iter().all(|&(occ, att)| {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, att) in &occs {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = att;
        }
        entries.push(Entry { mask, magic, shift, offset });
    }
    entries
}

fn emit(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    Magic {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
            e.mask, e.magic, e.shift, e.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// Tells the crate which commit it is built from (`fission --version`):
/// `FISSION_GIT_COMMIT` is the short hash of `HEAD` (uncommitted changes are
/// not noticed), or "unknown" outside a git checkout.
fn git_commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=10", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=FISSION_GIT_COMMIT={commit}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/attacks/directions.rs");
    git_commit();
    let mut rng = Rng(SEED);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::with_capacity(table.len() * 24);
    out.push_str("// Generated by build.rs from a fixed seed. Do not edit.\n");
    emit(&mut out, "ROOK_MAGICS", &rook);
    emit(&mut out, "BISHOP_MAGICS", &bishop);
    writeln!(out, "pub(crate) static SLIDER_TABLE: [Bitboard; {}] = [", table.len()).unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " Bitboard({v:#x}),").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(dest, out).unwrap();
}
