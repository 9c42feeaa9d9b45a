//! `--name value` command-line flags for the example programs.

use std::str::FromStr;

pub struct Flags(Vec<(String, String)>);

impl Flags {
    /// Reads the process arguments as `--name value` pairs; only the names
    /// in `known` are accepted.
    pub fn from_args(known: &[&str]) -> Result<Flags, String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut pairs = Vec::new();
        let mut it = args.into_iter();
        while let Some(name) = it.next() {
            if !known.contains(&name.as_str()) {
                return Err(format!("unknown argument '{name}' (known: {})", known.join(" ")));
            }
            let value = it.next().ok_or(format!("{name} needs a value"))?;
            pairs.push((name, value));
        }
        Ok(Flags(pairs))
    }

    /// The last value given for `name`, parsed, or `default`.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.0.iter().rev().find(|(n, _)| n == name) {
            Some((_, v)) => v.parse().map_err(|_| format!("{name}: bad value '{v}'")),
            None => Ok(default),
        }
    }
}
