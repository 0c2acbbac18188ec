//! The innermost loops of the split mex, vectorised. The naive loop, for values held one
//! byte each and all below 16 (Dawson's Kayles and many other octal games): the nim-sums of
//! the heap pairs `(a, rest - a)`, collected as a bit set; with AVX2 it takes 32 pairs per
//! instruction group (a byte table lookup marks each nim-sum). The search for one nim-sum
//! among those pairs (the rare/common method's check of a candidate), 32 or 16 pairs at a
//! time. Elsewhere scalar loops do the same.

/// The nim-sums `low[i] ^ high[high.len() - 1 - i]` for every `i` (the slices have one
/// length), as bits of a `u16`. Every value must be below 16: a larger one marks a wrong
/// value.
pub(crate) fn reversed_xor_marks(low: &[u8], high: &[u8]) -> u16 {
    debug_assert_eq!(low.len(), high.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one feature `avx2::marks` is compiled for.
            return unsafe { avx2::marks(low, high) };
        }
    }
    scalar(low, high)
}

/// [`reversed_xor_marks`] one pair at a time.
pub(crate) fn scalar(low: &[u8], high: &[u8]) -> u16 {
    let mut marks = 0u16;
    for (x, y) in low.iter().zip(high.iter().rev()) {
        marks |= 1 << ((x ^ y) & 15);
    }
    marks
}

/// The first `i` with `low[i] ^ high[high.len() - 1 - i] == target`, if any (the slices
/// have one length): the split of a heap whose nim-sum is `target`. With AVX2, 32 pairs at
/// a time.
pub(crate) fn find_reversed_xor_u8(low: &[u8], high: &[u8], target: u8) -> Option<usize> {
    debug_assert_eq!(low.len(), high.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one feature `avx2::find_u8` is compiled for.
            return unsafe { avx2::find_u8(low, high, target) };
        }
    }
    find_scalar(low, high, target)
}

/// [`find_reversed_xor_u8`] for values of two bytes, 16 pairs at a time with AVX2.
pub(crate) fn find_reversed_xor_u16(low: &[u16], high: &[u16], target: u16) -> Option<usize> {
    debug_assert_eq!(low.len(), high.len());
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one feature `avx2::find_u16` is compiled for.
            return unsafe { avx2::find_u16(low, high, target) };
        }
    }
    find_scalar(low, high, target)
}

/// The reversed-pair search one pair at a time.
pub(crate) fn find_scalar<T>(low: &[T], high: &[T], target: T) -> Option<usize>
where
    T: Copy + PartialEq + std::ops::BitXor<Output = T>,
{
    (low.iter().zip(high.iter().rev())).position(|(&x, &y)| x ^ y == target)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// [`super::reversed_xor_marks`] with AVX2, 32 pairs at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn marks(low: &[u8], high: &[u8]) -> u16 {
        let len = low.len().min(high.len());
        let chunks = len / 32;
        // Byte `x` of each 128-bit lane looks up bit `x` of the marks: values 0..8 in the
        // low table's bytes, 8..16 in the high table's.
        let low_bits = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, //
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
        );
        let high_bits = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, //
            0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
        );
        // Reverses the bytes of each 128-bit lane.
        let reverse = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, //
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        );
        let mut acc_low = _mm256_setzero_si256();
        let mut acc_high = _mm256_setzero_si256();
        for c in 0..chunks {
            // SAFETY: `32 * (c + 1) <= len`, so both 32-byte reads are inside the slices.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(low.as_ptr().add(32 * c).cast()),
                    _mm256_loadu_si256(high.as_ptr().add(len - 32 * (c + 1)).cast()),
                )
            };
            // `b` reversed: swap the lanes, then reverse each.
            let b = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(b, 0x4E), reverse);
            let x = _mm256_xor_si256(a, b);
            acc_low = _mm256_or_si256(acc_low, _mm256_shuffle_epi8(low_bits, x));
            acc_high = _mm256_or_si256(acc_high, _mm256_shuffle_epi8(high_bits, x));
        }
        let fold = |v: __m256i| {
            let mut bytes = [0u8; 32];
            // SAFETY: `bytes` holds 32 bytes.
            unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), v) };
            bytes.iter().fold(0u8, |m, &b| m | b)
        };
        let done = 32 * chunks;
        let vector = fold(acc_low) as u16 | (fold(acc_high) as u16) << 8;
        vector | super::scalar(&low[done..len], &high[..len - done])
    }

    /// An AVX2 search of `low[i] ^ high[len - 1 - i] == target` over `$ty` values, `$lanes`
    /// pairs at a time: `$reverse` reverses the values of each 128-bit lane (as bytes),
    /// `$set1` and `$cmpeq` broadcast and compare values of the width.
    macro_rules! find_reversed_xor {
        ($(#[$doc:meta])* $name:ident, $ty:ty, $signed:ty, $lanes:literal, $set1:ident,
         $cmpeq:ident, $reverse:expr) => {
            $(#[$doc])*
            ///
            /// # Safety
            /// The CPU must have AVX2.
            #[target_feature(enable = "avx2")]
            pub(super) unsafe fn $name(low: &[$ty], high: &[$ty], target: $ty) -> Option<usize> {
                let len = low.len().min(high.len());
                let chunks = len / $lanes;
                let [r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15] =
                    $reverse;
                let reverse = _mm256_setr_epi8(
                    r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, //
                    r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15,
                );
                let wanted = $set1(target as $signed);
                for c in 0..chunks {
                    // SAFETY: `$lanes * (c + 1) <= len`, so both 32-byte reads are inside
                    // the slices.
                    let (a, b) = unsafe {
                        (
                            _mm256_loadu_si256(low.as_ptr().add($lanes * c).cast()),
                            _mm256_loadu_si256(high.as_ptr().add(len - $lanes * (c + 1)).cast()),
                        )
                    };
                    let b = _mm256_shuffle_epi8(_mm256_permute4x64_epi64(b, 0x4E), reverse);
                    let hits = _mm256_movemask_epi8($cmpeq(_mm256_xor_si256(a, b), wanted));
                    if hits != 0 {
                        // One mask bit a byte: `32 / $lanes` a value.
                        return Some($lanes * c + hits.trailing_zeros() as usize / (32 / $lanes));
                    }
                }
                let done = $lanes * chunks;
                super::find_scalar(&low[done..len], &high[..len - done], target).map(|i| done + i)
            }
        };
    }

    find_reversed_xor!(
        /// [`super::find_reversed_xor_u8`] with AVX2, 32 pairs at a time.
        find_u8, u8, i8, 32, _mm256_set1_epi8, _mm256_cmpeq_epi8,
        [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    );
    find_reversed_xor!(
        /// [`super::find_reversed_xor_u16`] with AVX2, 16 pairs at a time.
        find_u16, u16, i16, 16, _mm256_set1_epi16, _mm256_cmpeq_epi16,
        [14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1]
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn vector_marks_equal_the_scalar_loop(
            pairs in prop::collection::vec((0u8..16, 0u8..16), 0..200),
        ) {
            let (low, high): (Vec<u8>, Vec<u8>) = pairs.into_iter().unzip();
            prop_assert_eq!(reversed_xor_marks(&low, &high), scalar(&low, &high));
            let by_definition = (0..low.len())
                .fold(0u16, |m, i| m | 1 << (low[i] ^ high[low.len() - 1 - i]));
            prop_assert_eq!(scalar(&low, &high), by_definition);
        }

        #[test]
        fn vector_searches_find_the_first_pair_as_defined(
            pairs in prop::collection::vec((0u16..40, 0u16..40), 0..200),
            target in 0u16..48,
            wide in 0u16..4,
        ) {
            // Values past a byte (shifted by `wide` bytes' worth) for the 16-bit search.
            let (low, high): (Vec<u16>, Vec<u16>) = pairs.into_iter().unzip();
            let by_definition = (0..low.len()).find(|&i| low[i] ^ high[low.len() - 1 - i] == target);
            let shift = |v: &[u16]| v.iter().map(|&x| x | wide << 10).collect::<Vec<u16>>();
            prop_assert_eq!(find_reversed_xor_u16(&shift(&low), &shift(&high), target), by_definition);
            prop_assert_eq!(find_scalar(&low, &high, target), by_definition);
            let bytes = |v: &[u16]| v.iter().map(|&x| x as u8).collect::<Vec<u8>>();
            prop_assert_eq!(find_reversed_xor_u8(&bytes(&low), &bytes(&high), target as u8), by_definition);
        }
    }
}
