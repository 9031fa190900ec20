# Kinetic Studio — the README's commands. Each target installs what is missing first.
.PHONY: deps configure build run test test-asan fuzz bench install deb clean format goldens

JOBS ?= $(shell nproc)
# ccache hits across clones of the repository (CI builds a fresh clone each time).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
# GUI tests need a display: use the caller's, else a virtual one.
XVFB := $(if $(DISPLAY),,xvfb-run -a -s "-screen 0 1920x1080x24")

deps:
	@./installer/install-deps.sh

configure: deps
	@cmake --preset default >/dev/null

build: configure
	@./cmake/phase.sh build cmake --build --preset default -j $(JOBS)

run: build
	./build/default/app/kinetic-studio $(ARGS)

# The sanitizer phase runs where it fits CI's time (cmake/make_test.sh says when it does not).
test: deps
	@./cmake/make_test.sh $(XVFB)

# Engine tests under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: deps
	@cmake --preset asan >/dev/null
	@./cmake/phase.sh build-asan cmake --build --preset asan -j $(JOBS)
	@./cmake/phase.sh test-asan ctest --preset asan

# libFuzzer campaign (clang, ASan + UBSan) over every reader of user files: FUZZ_SECONDS each, one
# after another; FUZZ_TARGETS="xacro mesh" for some (default: all). Findings in build/fuzz/artifacts.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS ?=
fuzz:
	@./installer/install-deps.sh --fuzz
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	./tests/fuzz/run_campaign.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)
	@$(XVFB) ./tests/benchmarks/run_all.sh build/release/benchmarks build/bench

# Rewrites the golden images from the current renderer (look at them before committing).
goldens: build
	KINETIC_UPDATE_GOLDENS=1 $(XVFB) ctest --preset default -L golden

install: build
	cmake --install build/default --prefix $(or $(PREFIX),/usr/local)

# The studio as a Debian package, build/release/kinetic-studio_<version>_<arch>.deb. Configured for
# /usr: the binary looks for its robot library under the prefix it was built for.
deb: deps
	@cmake --preset release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
	@cmake --build --preset release -j $(JOBS) --target kinetic-studio
	cd build/release && cpack -G DEB

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf build
