//! go-yaml v2's map key order (`sorted.go` `keyList.Less`).

/// [`key_less`] as an ordering.
pub fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    if key_less(a, b) {
        std::cmp::Ordering::Less
    } else if key_less(b, a) {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// go-yaml v2 `keyList.Less` for two string keys: at the first differing character, two
/// letters compare by code point, a letter sorts after a non-letter, and runs of digits
/// compare as numbers (`sorted.go`).
pub fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .saturating_mul(10)
                .saturating_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .saturating_mul(10)
                .saturating_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}
