;; The line kernel of the log scan (line-kernel.ts): it runs over the lines of a chunk that repeat the shape of the
;; last info line (level-column.ts's InfoColumn rule: the same bytes up to the end of the level word, a digit for any
;; digit, then the end of the line or a byte allowed after a word) and writes where each starts. 16 bytes at a time:
;; the newline by comparison and bitmask, the shape by comparison with its bytes and digit mask. (A JSON or logfmt
;; shape is the bytes up to the end of the level value; any byte may follow it.) The kernel holds no level word: the
;; shapes and the after-word table come from the host, built from src/core/trim/level-rule.ts.
;;
;; Memory (the host sizes it and writes the shape):
;;   0     the shape's bytes (zero past its end), 256 bytes
;;   256   0xff where the shape's byte is a digit, 256 bytes
;;   512   0xff where the lane is past the shape's end (any byte goes), 256 bytes
;;   768   the bytes allowed right after the shape: 1, else 0 (256 bytes; all 1 for a JSON or logfmt shape)
;;   1024  the shape's length (i32; 0: no shape)
;;   then the host's line starts and the chunk's bytes (followed by at least 256 bytes it never reads as data)
(module
  (import "env" "memory" (memory 1))
  ;; Where the run stopped: the start of the first line it did not take.
  (global $pos (export "pos") (mut i32) (i32.const 0))

  ;; Lines from byte $p (a line start) that repeat the shape and end with a newline before $end; at most $cap of
  ;; them. Writes each one's start, less $base, at $starts (i32 each); returns how many, and sets $pos.
  (func (export "run") (param $p i32) (param $end i32) (param $starts i32) (param $cap i32) (param $base i32) (result i32)
    (local $k i32) (local $q i32) (local $nl i32) (local $n i32) (local $m i32) (local $b i32) (local $line v128)
    (local.set $n (i32.load (i32.const 1024)))
    (if (i32.eqz (local.get $n)) (then (global.set $pos (local.get $p)) (return (i32.const 0))))
    (block $stop
      (loop $lines
        (br_if $stop (i32.ge_u (local.get $k) (local.get $cap)))
        ;; The newline that ends the line: none before $end, and the line is not taken.
        (local.set $q (local.get $p))
        (block $found
          (loop $find
            (br_if $stop (i32.ge_u (local.get $q) (local.get $end)))
            (local.set $m (i8x16.bitmask (i8x16.eq (v128.load (local.get $q)) (i8x16.splat (i32.const 10)))))
            (if (local.get $m)
              (then
                (local.set $nl (i32.add (local.get $q) (i32.ctz (local.get $m))))
                (br_if $stop (i32.ge_u (local.get $nl) (local.get $end)))
                (br $found)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $find)))
        ;; At least the shape's length, then the end of the line or a byte allowed after a word.
        (br_if $stop (i32.lt_u (i32.sub (local.get $nl) (local.get $p)) (local.get $n)))
        (if (i32.lt_u (i32.add (local.get $p) (local.get $n)) (local.get $nl))
          (then
            (br_if $stop (i32.eqz (i32.load8_u offset=768 (i32.load8_u (i32.add (local.get $p) (local.get $n))))))))
        ;; Each byte of the shape: the same byte, or a digit where the shape has one.
        (local.set $b (i32.const 0))
        (loop $blocks
          (local.set $line (v128.load (i32.add (local.get $p) (local.get $b))))
          (br_if $stop
            (i32.eqz
              (i8x16.all_true
                (v128.or
                  (i8x16.eq (local.get $line) (v128.load (local.get $b)))
                  (v128.or
                    (v128.and
                      (i8x16.lt_u (i8x16.sub (local.get $line) (i8x16.splat (i32.const 0x30))) (i8x16.splat (i32.const 10)))
                      (v128.load offset=256 (local.get $b)))
                    (v128.load offset=512 (local.get $b)))))))
          (local.set $b (i32.add (local.get $b) (i32.const 16)))
          (br_if $blocks (i32.lt_u (local.get $b) (local.get $n))))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))) (i32.sub (local.get $p) (local.get $base)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $p (i32.add (local.get $nl) (i32.const 1)))
        (br $lines)))
    (global.set $pos (local.get $p))
    (local.get $k))
)
