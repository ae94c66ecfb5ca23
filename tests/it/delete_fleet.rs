//! Integration tests of `delete_fleet` (filled in by its builder).
