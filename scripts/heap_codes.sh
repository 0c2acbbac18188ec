# Sourced by heap_games.sh and heap_values.sh: octal games of one to three digits whose
# nim-sequences have no known period (issue 40's first, then more).
# shellcheck disable=SC2034
codes=(
    0.106 0.165 0.35 0.6 4.7 0.51 0.16 0.14 0.007
    0.104 0.114 0.126 0.127 0.135 0.146 0.164 0.166 0.172 0.174 0.176
    0.314 0.324 0.336 0.344 0.346 0.354 0.36 0.37 0.614 0.64 0.654 0.664 0.74 0.744 0.76
    0.764 0.774 0.167 0.342 0.345 0.376 0.454
)
