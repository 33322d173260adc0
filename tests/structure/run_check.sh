#!/usr/bin/env bash
# run_check.sh BUILD SRC - the include check over the project's sources.
exec "$2/tests/structure/check_includes.sh" "$2"
