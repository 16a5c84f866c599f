//! The public benchmark sets of classic positions with their published
//! scores, which the solver is measured and checked against.

/// The six public benchmark sets by name, and their files (see
/// `tests/data/connect4-benchmarks/README.md`).
pub const BENCHMARK_SETS: [(&str, &str); 6] = [
    ("End-Easy", "Test_L3_R1"),
    ("Middle-Easy", "Test_L2_R1"),
    ("Middle-Medium", "Test_L2_R2"),
    ("Begin-Easy", "Test_L1_R1"),
    ("Begin-Medium", "Test_L1_R2"),
    ("Begin-Hard", "Test_L1_R3"),
];
