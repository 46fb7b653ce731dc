VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test lint bench faults clean pi-check sdist-check

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/companion play

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	SDL_VIDEODRIVER=dummy $(VENV)/bin/pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) -m bench

faults: $(STAMP)
	$(PY) -m bench.faults

# Minutes, not part of `make test`: the install on an emulated Raspberry Pi OS trixie arm64
# (as root; the root is built once and cached), and the sdist's own tests.
# The four bases of today's Raspberry Pi OS; one of them: PI_CHECK_ARCH=armhf
# PI_CHECK_SUITE=bookworm tools/pi-check.sh; the companion's wheel, which each installs as
# docs/install.md's one command does, is built once for the four.
pi-check:
	wheel="$$(tools/pi-check.sh --build-wheel)" || exit 1; failed=0; \
	for suite in trixie bookworm; do for arch in arm64 armhf; do \
		PI_CHECK_WHEEL="$$wheel" PI_CHECK_SUITE=$$suite PI_CHECK_ARCH=$$arch \
			tools/pi-check.sh || { failed=1; break 2; }; \
	done; done; rm -rf "$$(dirname "$$wheel")"; exit $$failed

sdist-check:
	tools/sdist-check.sh

clean:
	rm -rf $(VENV) .pytest_cache
