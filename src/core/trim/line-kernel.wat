;; The line kernel of the log scan (line-kernel.ts): it runs over the lines of a chunk that repeat the shape of the
;; last info line (level-column.ts's InfoColumn rule: the same bytes up to the end of the level word, a digit for any
;; digit, then the end of the line or a byte allowed after a word) and writes where each starts. 16 bytes at a time:
;; the newline by comparison and bitmask, the shape by comparison with its bytes and digit mask. (A JSON or logfmt
;; shape is the bytes up to the end of the level value; any byte may follow it. For a numeric level, pino's, the
;; level's digits are no digits in the mask, and the rest of the line must hold no quote before a string level key's
;; first byte.) The kernel holds no level word: the shapes, the after-word table and the keys' first bytes come from
;; the host, built from src/core/trim/level-rule.ts.
;;
;; Memory (the host sizes it and writes the shape):
;;   0     the shape's bytes (zero past its end), 256 bytes
;;   256   0xff where the shape's byte is a digit (not a numeric level's: those repeat exactly), 256 bytes
;;   512   0xff where the lane is past the shape's end (any byte goes), 256 bytes
;;   768   the bytes allowed right after the shape: 1, else 0 (256 bytes; all 1 for a JSON or logfmt shape)
;;   1024  the shape's length (i32; 0: no shape)
;;   1028  1 when the shape ends with a numeric level (pino's `{"level":30,`): a line then repeats it only when the
;;         rest of the line holds no `"` followed by a byte that `| 0x20` makes one of KEYS (i32)
;;   1032  KEYS: the first bytes of the string level keys, `| 0x20` (4 bytes; 0: none, which no byte `| 0x20` is)
;;   1088  FILTER: quiet's filter of anchors (line-kernel.ts's nibbleTables): for each of an anchor's three bytes (the
;;           pair, then the third), 16 bytes by low nibble then 16 by high nibble, each a mask of 8 buckets, 96 bytes
;;   2048  the host's line starts (65 536 bytes)
;;   67584   PAIRS: for each two bytes (the first + 256 × the second), the group of trigger words whose anchor they are
;;           (0: none), 65 536 bytes
;;   133120  STARTS3: for each first two bytes of a line (the same index), 1 when the line may state a level by its
;;           start, or the byte that must come third (0: no), 65 536 bytes
;;   198656  THIRDS: for group g, at 256 g, 1 for each byte that comes third in one of its words' anchors (either
;;           case), 65 536 bytes
;;   264192  FOLD: each byte, A-Z in lower case, 256 bytes
;;   264448  GROUPS: for group g, at 4 g, its first word's number (u16) and how many words it has (u16), 1 024 bytes
;;   265472  WORDS: word n at 32 n: its anchor's offset in it (u8), its length (u8; + 0x80 for pino's level key), its
;;           bytes in lower case, 8 192 bytes
;;   273664  the chunk's bytes (followed by at least 256 bytes it never reads as data)
(module
  (import "env" "memory" (memory 1))
  ;; Where the run stopped: the start of the first line it did not take.
  (global $pos (export "pos") (mut i32) (i32.const 0))

  ;; Lines from byte $p (a line start) that repeat the shape and end with a newline before $end; at most $cap of
  ;; them. Writes each one's start, less $base, at $starts (i32 each); returns how many, and sets $pos.
  (func (export "run") (param $p i32) (param $end i32) (param $starts i32) (param $cap i32) (param $base i32) (result i32)
    (local $k i32) (local $q i32) (local $nl i32) (local $n i32) (local $m i32) (local $b i32) (local $line v128)
    (local $rest i32) (local $y v128) (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128)
    (local.set $n (i32.load (i32.const 1024)))
    (local.set $rest (i32.load (i32.const 1028)))
    (local.set $k0 (i8x16.splat (i32.load8_u (i32.const 1032))))
    (local.set $k1 (i8x16.splat (i32.load8_u (i32.const 1033))))
    (local.set $k2 (i8x16.splat (i32.load8_u (i32.const 1034))))
    (local.set $k3 (i8x16.splat (i32.load8_u (i32.const 1035))))
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
        ;; A numeric level's shape: no quote in the rest of the line before a string level key's first byte.
        (if (local.get $rest)
          (then
            (local.set $q (i32.add (local.get $p) (local.get $n)))
            (block $clean
              (loop $keys
                (br_if $clean (i32.ge_u (local.get $q) (local.get $nl)))
                (local.set $y (v128.or (v128.load offset=1 (local.get $q)) (i8x16.splat (i32.const 0x20))))
                (local.set $m
                  (i8x16.bitmask
                    (v128.and
                      (i8x16.eq (v128.load (local.get $q)) (i8x16.splat (i32.const 0x22)))
                      (v128.or
                        (v128.or (i8x16.eq (local.get $y) (local.get $k0)) (i8x16.eq (local.get $y) (local.get $k1)))
                        (v128.or (i8x16.eq (local.get $y) (local.get $k2)) (i8x16.eq (local.get $y) (local.get $k3)))))))
                ;; Only the quotes before the newline.
                (if (i32.lt_u (i32.sub (local.get $nl) (local.get $q)) (i32.const 16))
                  (then
                    (local.set $m
                      (i32.and (local.get $m) (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $nl) (local.get $q))) (i32.const 1))))))
                (br_if $stop (local.get $m))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))
                (br $keys)))))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))) (i32.sub (local.get $p) (local.get $base)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $p (i32.add (local.get $nl) (i32.const 1)))
        (br $lines)))
    (global.set $pos (local.get $p))
    (local.get $k))

  ;; Lines from byte $p (a line start) that hold no trigger word and do not start as a level may (triggers.ts): info
  ;; lines whatever else they say. Same parameters, result and $pos as run.
  (func (export "quiet") (param $p i32) (param $end i32) (param $starts i32) (param $cap i32) (param $base i32) (result i32)
    (local $k i32) (local $q i32) (local $nl i32) (local $m i32) (local $i i32) (local $v i32) (local $j i32)
    (local $x v128) (local $y v128) (local $z v128)
    (block $stop
      (loop $lines
        (br_if $stop (i32.ge_u (local.get $k) (local.get $cap)))
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
        ;; The line's start: a level stated without a word.
        (local.set $v (i32.load8_u offset=133120 (i32.load16_u (local.get $p))))
        (if (local.get $v)
          (then
            (br_if $stop (i32.eq (local.get $v) (i32.const 1)))
            (br_if $stop (i32.eq (i32.load8_u offset=2 (local.get $p)) (local.get $v)))))
        ;; Each three bytes in the line that may anchor a word (a pair that anchors a group, and a third byte one of its
        ;; words has after it): a word of the group around them stops the run. 16 bytes at a time, a filter first
        ;; (FILTER: the lanes where some bucket holds an anchor whose three bytes have these nibbles; an anchor is
        ;; never filtered out), then the exact tables (PAIRS, THIRDS) only at the lanes it lets through.
        (local.set $i (local.get $p))
        (block $clean
          (loop $blocks
            (br_if $clean (i32.ge_u (local.get $i) (local.get $nl)))
            (local.set $x (v128.load (local.get $i)))
            (local.set $y (v128.load offset=1 (local.get $i)))
            (local.set $z (v128.load offset=2 (local.get $i)))
            (local.set $m
              (i8x16.bitmask
                (i8x16.ne
                  (v128.and
                    (v128.and
                      (v128.and
                        (i8x16.swizzle (v128.load (i32.const 1088)) (v128.and (local.get $x) (i8x16.splat (i32.const 15))))
                        (i8x16.swizzle (v128.load (i32.const 1104)) (i8x16.shr_u (local.get $x) (i32.const 4))))
                      (v128.and
                        (i8x16.swizzle (v128.load (i32.const 1120)) (v128.and (local.get $y) (i8x16.splat (i32.const 15))))
                        (i8x16.swizzle (v128.load (i32.const 1136)) (i8x16.shr_u (local.get $y) (i32.const 4)))))
                    (v128.and
                      (i8x16.swizzle (v128.load (i32.const 1152)) (v128.and (local.get $z) (i8x16.splat (i32.const 15))))
                      (i8x16.swizzle (v128.load (i32.const 1168)) (i8x16.shr_u (local.get $z) (i32.const 4)))))
                  (i8x16.splat (i32.const 0)))))
            ;; Only the bytes before the newline.
            (if (i32.lt_u (i32.sub (local.get $nl) (local.get $i)) (i32.const 16))
              (then
                (local.set $m
                  (i32.and (local.get $m) (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $nl) (local.get $i))) (i32.const 1))))))
            (block $done
              (loop $bits
                (br_if $done (i32.eqz (local.get $m)))
                (local.set $j (i32.add (local.get $i) (i32.ctz (local.get $m))))
                (local.set $v (i32.load8_u offset=67584 (i32.load16_u (local.get $j))))
                (if (local.get $v)
                  (then
                    (if (i32.load8_u offset=198656 (i32.add (i32.shl (local.get $v) (i32.const 8)) (i32.load8_u offset=2 (local.get $j))))
                      (then (br_if $stop (call $holds (local.get $j) (local.get $p) (local.get $nl) (local.get $v)))))))
                (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
                (br $bits)))
            (local.set $i (i32.add (local.get $i) (i32.const 16)))
            (br $blocks)))
        (i32.store (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2))) (i32.sub (local.get $p) (local.get $base)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $p (i32.add (local.get $nl) (i32.const 1)))
        (br $lines)))
    (global.set $pos (local.get $p))
    (local.get $k))

  ;; 1 when a word of group $g, its anchor at byte $i, lies within the line [$s, $e), any ASCII case. A word whose
  ;; length has its high bit set is pino's level key: it counts only when the value after it (past white space, `:`
  ;; and non-ASCII bytes) starts with a digit from 4 up.
  (func $holds (param $i i32) (param $s i32) (param $e i32) (param $g i32) (result i32)
    (local $w i32) (local $n i32) (local $at i32) (local $len i32) (local $j i32) (local $c i32)
    (local.set $w (i32.add (i32.const 265472) (i32.shl (i32.load16_u offset=264448 (i32.shl (local.get $g) (i32.const 2))) (i32.const 5))))
    (local.set $n (i32.load16_u offset=264450 (i32.shl (local.get $g) (i32.const 2))))
    (block $none
      (loop $words
        (br_if $none (i32.eqz (local.get $n)))
        (local.set $at (i32.sub (local.get $i) (i32.load8_u (local.get $w))))
        (local.set $len (i32.load8_u offset=1 (local.get $w)))
        (block $next
          (br_if $next (i32.lt_u (local.get $at) (local.get $s)))
          (br_if $next (i32.gt_u (i32.add (local.get $at) (i32.and (local.get $len) (i32.const 0x7f))) (local.get $e)))
          (local.set $j (i32.const 0))
          (loop $bytes
            (if (i32.ge_u (local.get $j) (i32.and (local.get $len) (i32.const 0x7f)))
              (then
                (if (i32.lt_u (local.get $len) (i32.const 0x80)) (then (return (i32.const 1))))
                (local.set $j (i32.add (local.get $at) (i32.and (local.get $len) (i32.const 0x7f))))
                (block $value
                  (loop $skip
                    (br_if $value (i32.ge_u (local.get $j) (local.get $e)))
                    (local.set $c (i32.load8_u (local.get $j)))
                    (br_if $value
                      (i32.eqz
                        (i32.or
                          (i32.or (i32.lt_u (i32.sub (local.get $c) (i32.const 9)) (i32.const 5)) (i32.ge_u (local.get $c) (i32.const 0x80)))
                          (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x3a))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 1)))
                    (br $skip)))
                (br_if $next (i32.ge_u (local.get $j) (local.get $e)))
                (local.set $c (i32.load8_u (local.get $j)))
                (br_if $next (i32.gt_u (i32.sub (local.get $c) (i32.const 0x34)) (i32.const 5)))
                (return (i32.const 1))))
            (br_if $next
              (i32.ne
                (i32.load8_u offset=264192 (i32.load8_u (i32.add (local.get $at) (local.get $j))))
                (i32.load8_u offset=2 (i32.add (local.get $w) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $bytes)))
        (local.set $w (i32.add (local.get $w) (i32.const 32)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $words)))
    (i32.const 0))
)
