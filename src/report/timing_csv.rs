//! `timing.csv`: every cell of the report as one row of plain numbers, for a
//! spreadsheet or a script. The columns are [`COLUMNS`]; a skipped cell keeps
//! its position, algorithm and depth, says `skipped`, gives its predicted
//! time and leaves the measured columns empty; a failed run of a program
//! says `failed` and why. What a program does not say (its nodes, when it
//! prints no count, and its value) is left empty.

use super::timings::{CellResult, Timings};
use crate::value::POINT;

/// The name of the CSV file in the output directory.
pub const CSV_FILE: &str = "timing.csv";

/// The header row.
pub const COLUMNS: [&str; 12] = [
    "position",
    "algorithm",
    "depth",
    "status",
    "nodes",
    "cpu_seconds",
    "runs",
    "nodes_per_second",
    "column",
    "value",
    "predicted_seconds",
    "failure",
];

/// The CSV text of `timings`: the header, then one row per cell.
///
/// # Errors
/// Never in practice: the text is built in memory.
pub fn write(timings: &Timings) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(COLUMNS)?;
    for cell in &timings.cells {
        let mut row = vec![
            timings.positions[cell.position].label.clone(),
            cell.algorithm.name().to_owned(),
            cell.depth.to_string(),
        ];
        let optional = |value: Option<String>| value.unwrap_or_default();
        match &cell.outcome {
            CellResult::Measured(measurement) => row.extend([
                "measured".to_owned(),
                optional(measurement.nodes.map(|nodes| nodes.to_string())),
                format!("{:.9}", measurement.cpu.as_secs_f64()),
                measurement.runs.to_string(),
                optional(measurement.nodes_per_second().map(|rate| format!("{rate:.0}"))),
                measurement.column.number().to_string(),
                // Exact: a 32nd of a point is a short binary fraction.
                optional(measurement.value.map(|value| (f64::from(value) / f64::from(POINT)).to_string())),
                String::new(),
                String::new(),
            ]),
            CellResult::Skipped { predicted_seconds } => {
                row.extend(["skipped".to_owned()].into_iter().chain(vec![String::new(); 6]));
                row.extend([format!("{predicted_seconds:.9}"), String::new()]);
            }
            CellResult::Failed { reason } => {
                row.extend(["failed".to_owned()].into_iter().chain(vec![String::new(); 7]));
                row.push(reason.clone());
            }
        }
        writer.write_record(&row)?;
    }
    writer.into_inner().map_err(|error| error.into_error().into())
}
