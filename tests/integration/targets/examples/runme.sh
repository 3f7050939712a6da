#!/usr/bin/env bash
# Every module's EXAMPLES and the role's example playbook, run as written (run_examples.py).
set -eu
python run_examples.py ../../integration_config.yml
