;; Dot products of one query with many rows of float32s, four lanes at a time (WebAssembly SIMD).
;; Compiled into dot-products.ts (DOT_PRODUCTS_WASM); dot-products.test.ts checks the two agree.
;; The query and each row are `d` floats, `d` a multiple of 16; rows follow one another from
;; `rows`; the n results are written as float32s from `out`. Four accumulators, so that each
;; addition does not wait for the one before.
(module
  (import "env" "memory" (memory 1))
  (func (export "dots") (param $q i32) (param $rows i32) (param $n i32) (param $d i32) (param $out i32)
    (local $i i32) (local $j i32) (local $row i32) (local $bytes i32)
    (local $a v128) (local $b v128) (local $c v128) (local $e v128)
    (local.set $bytes (i32.shl (local.get $d) (i32.const 2)))
    (local.set $row (local.get $rows))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $c (v128.const f32x4 0 0 0 0))
        (local.set $e (v128.const f32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $each_block
          (local.set $a (f32x4.add (local.get $a) (f32x4.mul
            (v128.load (i32.add (local.get $q) (local.get $j)))
            (v128.load (i32.add (local.get $row) (local.get $j))))))
          (local.set $b (f32x4.add (local.get $b) (f32x4.mul
            (v128.load offset=16 (i32.add (local.get $q) (local.get $j)))
            (v128.load offset=16 (i32.add (local.get $row) (local.get $j))))))
          (local.set $c (f32x4.add (local.get $c) (f32x4.mul
            (v128.load offset=32 (i32.add (local.get $q) (local.get $j)))
            (v128.load offset=32 (i32.add (local.get $row) (local.get $j))))))
          (local.set $e (f32x4.add (local.get $e) (f32x4.mul
            (v128.load offset=48 (i32.add (local.get $q) (local.get $j)))
            (v128.load offset=48 (i32.add (local.get $row) (local.get $j))))))
          (local.set $j (i32.add (local.get $j) (i32.const 64)))
          (br_if $each_block (i32.lt_u (local.get $j) (local.get $bytes))))
        (local.set $a (f32x4.add (f32x4.add (local.get $a) (local.get $b))
                                 (f32x4.add (local.get $c) (local.get $e))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
                   (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each_row)))))
