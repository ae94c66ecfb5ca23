//! `--field-manager`, checked as the API server checks it (`ValidateFieldManager`).

use crate::base::echo::quoted;

/// The longest `--field-manager`, in bytes (`FieldManagerMaxLength`,
/// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
pub const MAX_FIELD_MANAGER_BYTES: usize = 128;

/// Checks `--field-manager` as the API server does (`ValidateFieldManager`,
/// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go): at most 128 bytes, every
/// character printable in Go's `unicode.IsPrint` sense (letters, marks, numbers, punctuation,
/// symbols and the ASCII space). Unassigned code points, which Go also refuses, are left to
/// the server (its 422 is exit 2 as well).
///
/// # Errors
/// A usage message naming the limit or the first bad character and its byte position.
pub fn check_field_manager(m: &str) -> Result<(), String> {
    if m.len() > MAX_FIELD_MANAGER_BYTES {
        return Err(format!(
            "--field-manager {} is {} bytes long; the API server accepts at most {MAX_FIELD_MANAGER_BYTES} (apimachinery ValidateFieldManager)",
            quoted(m),
            m.len()
        ));
    }
    if let Some((i, c)) = m.char_indices().find(|(_, c)| !is_go_printable(*c)) {
        return Err(format!(
            "--field-manager {} has the unprintable character U+{:04X} at byte {i}; the API server accepts printable characters only (apimachinery ValidateFieldManager)",
            quoted(m),
            c as u32
        ));
    }
    Ok(())
}

/// Go's `unicode.IsPrint` without the unassigned code points: false for control characters
/// (Cc), format characters (Cf), private use (Co), non-characters, and separators other than
/// the ASCII space (Zs, Zl, Zp).
pub fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    // Cf (format) code points, Unicode 15.1 (DerivedGeneralCategory.txt).
    const FORMAT: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];
    let private_use =
        (0xE000..=0xF8FF).contains(&u) || (0xF0000..=0xFFFFD).contains(&u) || u >= 0x100000;
    let non_character = (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE;
    !(private_use || non_character || FORMAT.iter().any(|(lo, hi)| (*lo..=*hi).contains(&u)))
}
