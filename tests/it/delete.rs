//! Integration tests of `delete` (filled in by its builder).
