//! Integration tests of `undelete` (filled in by its builder).
