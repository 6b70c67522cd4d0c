#!/bin/sh
# Whether a processor changes the kernarg segment: every fixture (and the readers' kinds.cl)
# compiled by clang-16/19/22 at -O0 for each code object and a set of gfx9-gfx12 processors (and
# generic ones), its NT_AMDGPU_METADATA (llvm-readelf-22 --notes: offsets, sizes, value kinds,
# names, address spaces, type names, access, pointee alignment, segment size and alignment)
# compared with the same file's for gfx900. Prints, per compiler and code object, the (file,
# processor) pairs compared, those that differ (each named), and those clang refuses (a processor
# that generation does not know, or a generic one below code object 6). src/abi/amdgpu-processors.ts
# cites it. Usage: sh scripts/amdgpu-processors-sweep.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
srcs="$root/test/readers/code-objects/kinds.cl $(ls "$root"/test/fixtures/*/input.cl)"
fields='\.(offset|size|value_kind|kernarg_segment_size|kernarg_segment_align|name|address_space|type_name|access|pointee_align):'
for clang in clang-16 clang-19 clang-22; do
  for co in 4 5 6; do
    [ "$clang" = clang-16 ] && [ "$co" = 6 ] && continue
    n=0; diffs=0; refused=0
    for s in $srcs; do
      "$clang" -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900 -nogpulib -O0 -cl-kernel-arg-info -mcode-object-version=$co -c "$s" -o "$tmp/a.o" 2>/dev/null || continue
      a=$(llvm-readelf-22 --notes "$tmp/a.o" | grep -E "$fields")
      for cpu in gfx906 gfx908 gfx90a gfx942 gfx950 gfx1010 gfx1030 gfx1100 gfx1151 gfx1200 gfx1201 gfx9-generic gfx11-generic; do
        "$clang" -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=$cpu -nogpulib -O0 -cl-kernel-arg-info -mcode-object-version=$co -c "$s" -o "$tmp/b.o" 2>/dev/null || { refused=$((refused + 1)); continue; }
        n=$((n + 1))
        b=$(llvm-readelf-22 --notes "$tmp/b.o" | grep -E "$fields")
        [ "$a" = "$b" ] || { diffs=$((diffs + 1)); echo "  differs: $clang code object $co $cpu $s"; }
      done
    done
    echo "$clang code object $co: $n (file, processor) pairs compared with gfx900, $diffs differ, $refused refused by clang"
  done
done
