# OpenBench-style build: `make EXE=/path/to/binary` builds the release
# binary and copies it there. `make` alone builds target/release/fission.
EXE ?= fission

.PHONY: all
all:
	cargo build --release --locked
	cp target/release/fission $(EXE)
