//! `timing.csv`: every cell of the report as one row of plain numbers, for a
//! spreadsheet or a script. The columns are [`COLUMNS`]; a skipped cell keeps
//! its position, algorithm and depth, says `skipped`, gives its predicted
//! time and leaves the measured columns empty.

use super::timings::{Outcome, Timings};
use crate::value::POINT;

/// The name of the CSV file in the output directory.
pub const CSV_FILE: &str = "timing.csv";

/// The header row.
pub const COLUMNS: [&str; 11] = [
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
        match cell.outcome {
            Outcome::Measured(measurement) => row.extend([
                "measured".to_owned(),
                measurement.result.nodes.to_string(),
                format!("{:.9}", measurement.cpu.as_secs_f64()),
                measurement.runs.to_string(),
                format!("{:.0}", measurement.nodes_per_second()),
                measurement.result.column.number().to_string(),
                // Exact: a 32nd of a point is a short binary fraction.
                (f64::from(measurement.result.value) / f64::from(POINT)).to_string(),
                String::new(),
            ]),
            Outcome::Skipped { predicted_seconds } => {
                row.extend(["skipped".to_owned()].into_iter().chain(vec![String::new(); 6]));
                row.push(format!("{predicted_seconds:.9}"));
            }
        }
        writer.write_record(&row)?;
    }
    writer.into_inner().map_err(|error| error.into_error().into())
}
