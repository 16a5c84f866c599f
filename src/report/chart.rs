//! The report's charts, each drawn twice from the same code: as PNG for any
//! viewer and as SVG for sharp printing.
//!
//! Plotters draws text with `ab_glyph` and the DejaVu Sans font compiled into
//! the program, and the PNG is encoded here with the `png` crate, so nothing
//! depends on the fonts or image libraries of the machine. An SVG names its
//! font for the viewer to find: DejaVu Sans, most Linux systems have it, or
//! Verdana, of the same widths, so that text fits the boxes drawn around it.

use std::error::Error as StdError;

use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::findings::{self, AlgorithmSummary};
use super::machine::Machine;
use super::measure::{Algorithm, Measurement};
use super::timings::{CellResult, Timings};
use super::{trust, units};
use crate::plot::{self, encode_png, FONT};
use crate::printable::{printable, LINE};

/// Why a chart could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error("the built-in font cannot be loaded")]
    Font,
    #[error("cannot draw the {chart} chart: {message}")]
    Draw { chart: &'static str, message: String },
    #[error("cannot encode the {chart} chart as PNG")]
    Png {
        chart: &'static str,
        #[source]
        source: png::EncodingError,
    },
}

/// One of the report's charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// CPU time against depth, log scale, one panel per position.
    TimeByDepth,
    /// CPU time against nodes, log-log, every search, with the fitted cost per node.
    TimeByNodes,
    /// Nodes against depth, log scale, one panel per position, with the
    /// effective branching factor.
    NodesByDepth,
}

/// Pixel width of every chart.
const WIDTH: u32 = 1200;
/// Pixel height of one row of panels, and of the single-panel chart.
const PANEL_HEIGHT: u32 = 420;
/// Pixel height of a chart's title.
const TITLE_HEIGHT: u32 = 50;

/// Line colours, by the algorithm's place in [`Algorithm::ALL`].
const PALETTE: [RGBColor; 4] =
    [RGBColor(214, 39, 40), RGBColor(31, 119, 180), RGBColor(44, 160, 44), RGBColor(148, 103, 189)];

type DrawResult = Result<(), Box<dyn StdError + Send + Sync>>;

impl Chart {
    pub const ALL: [Chart; 3] = [Chart::TimeByDepth, Chart::TimeByNodes, Chart::NodesByDepth];

    /// The file name without extension.
    #[must_use]
    pub const fn file_stem(self) -> &'static str {
        match self {
            Chart::TimeByDepth => "time_by_depth",
            Chart::TimeByNodes => "time_by_nodes",
            Chart::NodesByDepth => "nodes_by_depth",
        }
    }

    /// The title drawn on the chart.
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            Chart::TimeByDepth => "CPU time per search against depth",
            Chart::TimeByNodes => "CPU time against nodes explored, with the fitted cost per node",
            Chart::NodesByDepth => "Nodes explored against depth, with the effective branching factor",
        }
    }

    /// Draws the chart of `timings`, measured on `machine`: the PNG file's
    /// bytes and the SVG file's text. Where REPORT.md says a figure is not
    /// to be trusted, the chart says it too ([`trust`]): in its title for
    /// the whole report, in the legend for one series.
    ///
    /// # Errors
    /// When the built-in font cannot be loaded or drawing fails.
    pub fn draw(self, timings: &Timings, machine: &Machine) -> Result<(Vec<u8>, String), ChartError> {
        plot::register_font().map_err(|_| ChartError::Font)?;
        let size = self.size(timings);
        let draw_error = |error: Box<dyn StdError + Send + Sync>| ChartError::Draw {
            chart: self.file_stem(),
            message: error.to_string(),
        };
        let mut pixels = vec![0; size.0 as usize * size.1 as usize * 3];
        {
            let area = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
            self.render(&area, timings, machine).and_then(|()| Ok(area.present()?)).map_err(draw_error)?;
        }
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            self.render(&area, timings, machine).and_then(|()| Ok(area.present()?)).map_err(draw_error)?;
        }
        let png = encode_png(&pixels, size).map_err(|source| ChartError::Png { chart: self.file_stem(), source })?;
        Ok((png, svg))
    }

    fn size(self, timings: &Timings) -> (u32, u32) {
        match self {
            Chart::TimeByNodes => (WIDTH, TITLE_HEIGHT + 2 * PANEL_HEIGHT),
            Chart::TimeByDepth | Chart::NodesByDepth => {
                let (rows, _) = grid(searched(timings).len(), most_columns(timings));
                (WIDTH, TITLE_HEIGHT + rows as u32 * PANEL_HEIGHT)
            }
        }
    }

    /// The title drawn on the chart of `timings` measured on `machine`:
    /// [`Chart::title`], and why its timings are not to be trusted, if
    /// they are not.
    #[must_use]
    pub fn flagged_title(self, timings: &Timings, machine: &Machine) -> String {
        match trust::build(machine, timings) {
            Some(flag) => format!("{} ({flag})", self.title()),
            None => self.title().to_owned(),
        }
    }

    fn render<DB: DrawingBackend>(
        self,
        area: &DrawingArea<DB, Shift>,
        timings: &Timings,
        machine: &Machine,
    ) -> DrawResult
    where
        DB::ErrorType: 'static,
    {
        area.fill(&WHITE)?;
        let title = self.flagged_title(timings, machine);
        // A flagged title is longer: smaller, so that it fits the width.
        let size = fitting_font(28, &title, WIDTH - 40);
        let area = area.titled(&title, (FONT, size))?;
        let summaries = findings::summarize(timings);
        match self {
            Chart::TimeByDepth => {
                panels(&area, timings, &Axis::TIME, |m| Some(m.cpu.as_secs_f64()), |a, _| timings.name(a).to_owned())
            }
            Chart::NodesByDepth => {
                let label = |algorithm: Algorithm, position| {
                    let name = timings.name(algorithm);
                    let flat = summaries.iter().find(|s| s.algorithm == algorithm).filter(|s| s.flat_count);
                    if let Some(flag) = flat.and_then(trust::series) {
                        return format!("{name}: {flag}");
                    }
                    match findings::branching_factor(&[timings.node_series(position, algorithm)]) {
                        Some(factor) => format!("{name}: ×{} per ply", units::significant(factor, 3)),
                        None => name.to_owned(),
                    }
                };
                panels(&area, timings, &Axis::NODES, |m| Some(m.nodes? as f64), label)
            }
            Chart::TimeByNodes => time_by_nodes(&area, timings, &summaries),
        }
    }
}

/// A logarithmic value axis.
struct Axis {
    description: &'static str,
    format: fn(f64) -> String,
}

impl Axis {
    const TIME: Axis = Axis { description: "CPU time per search (log scale)", format: units::seconds };
    const NODES: Axis = Axis { description: "nodes explored (log scale)", format: units::count_short };
}

/// The positions that have a panel: those with something to search.
fn searched(timings: &Timings) -> Vec<usize> {
    (0..timings.positions.len()).filter(|&position| !timings.positions[position].board.is_full()).collect()
}

/// Rows and columns of panels for `positions` positions, `most` columns
/// at most.
fn grid(positions: usize, most: usize) -> (usize, usize) {
    let columns = match positions {
        0 | 1 => 1,
        2..=4 => 2,
        _ => 3,
    }
    .min(most.max(1));
    (positions.div_ceil(columns).max(1), columns)
}

/// How many columns of panels the legends of `timings` leave room for: a
/// program named by its command needs the width of two.
fn most_columns(timings: &Timings) -> usize {
    let short = timings.series.iter().all(|&algorithm| timings.name(algorithm).chars().count() <= 14);
    if short {
        3
    } else {
        2
    }
}

/// What a chart shows where no series gave a figure: a program that
/// printed no node count has nothing to plot against nodes.
const NOTHING_TO_PLOT: &str = "no node counts: the program printed none";

/// One panel per position: `value` of each measured search against depth
/// (where it is known), one line per series, labelled in the legend by
/// `label(algorithm, position)`.
fn panels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    timings: &Timings,
    axis: &Axis,
    value: impl Fn(&Measurement) -> Option<f64>,
    label: impl Fn(Algorithm, usize) -> String,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let max_depth = timings.cells.iter().map(|cell| cell.depth).max().unwrap_or(1);
    let positions = searched(timings);
    let (_, columns) = grid(positions.len(), most_columns(timings));
    // One font for every panel's legend, the longest label fitting a panel
    // beside its axis labels and the legend's lines.
    let longest = positions
        .iter()
        .flat_map(|&position| timings.series.iter().map(move |&algorithm| (algorithm, position)))
        .map(|(algorithm, position)| label(algorithm, position))
        .max_by_key(|label| label.chars().count())
        .unwrap_or_default();
    let legend_font = fitting_font(LEGEND_FONT, &longest, WIDTH / columns as u32 - 150);
    for (&position, panel) in positions.iter().zip(area.split_evenly(grid(positions.len(), columns))) {
        let lines: Vec<(Algorithm, Vec<(f64, f64)>)> = timings
            .series
            .iter()
            .map(|&algorithm| {
                let points =
                    timings.series(position, algorithm).filter_map(|(depth, m)| Some((f64::from(depth), value(&m)?)));
                (algorithm, points.collect())
            })
            .collect();
        let values = lines.iter().flat_map(|(_, points)| points.iter().map(|&(_, y)| y));
        let mut chart = ChartBuilder::on(&panel)
            // A position's label may be a file's name, which may hold anything.
            .caption(printable(&timings.positions[position].label, LINE), (FONT, 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0.5..f64::from(max_depth) + 0.5, log_range(values).log_scale())?;
        chart
            .configure_mesh()
            // Every depth while they fit, else every other one.
            .x_labels(if max_depth <= 12 { max_depth as usize + 2 } else { max_depth as usize / 2 + 2 })
            .x_label_formatter(&|depth| if depth.fract() == 0.0 { format!("{depth}") } else { String::new() })
            .y_label_formatter(&|y| (axis.format)(*y))
            .x_desc("depth (plies)")
            .y_desc(axis.description)
            .label_style((FONT, 16))
            .axis_desc_style((FONT, 17))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        if lines.iter().all(|(_, points)| points.is_empty()) {
            nothing_to_plot(&panel)?;
            continue;
        }
        for (algorithm, points) in lines {
            if points.is_empty() {
                continue;
            }
            let colour = colour(timings, algorithm);
            chart
                .draw_series(LineSeries::new(points.iter().copied(), colour.stroke_width(2)))?
                .label(label(algorithm, position))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(2)));
            chart.draw_series(points.iter().map(|&point| Circle::new(point, 4, colour.filled())))?;
            // The next depth was over the budget, or failed: the line stops here.
            let stopped = timings.cells.iter().any(|cell| {
                cell.position == position
                    && cell.algorithm == algorithm
                    && matches!(cell.outcome, CellResult::Skipped { .. } | CellResult::Failed { .. })
            });
            if let (true, Some(&last)) = (stopped, points.last()) {
                chart.draw_series([Cross::new(last, 9, colour.stroke_width(3))])?;
            }
        }
        // The lines rise to the right: the lower right corner is free.
        legend(&mut chart, SeriesLabelPosition::LowerRight, legend_font)?;
    }
    Ok(())
}

/// Every measured search as a point of CPU time against nodes, one colour per
/// algorithm, with the fitted line `time = cost × nodes` of each (plus its
/// start-up, for a program).
fn time_by_nodes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    timings: &Timings,
    summaries: &[AlgorithmSummary],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let points = |algorithm| -> Vec<(f64, f64)> {
        timings.measurements(algorithm).filter_map(|(_, _, m)| Some((m.nodes? as f64, m.cpu.as_secs_f64()))).collect()
    };
    let all: Vec<(f64, f64)> = timings.series.iter().flat_map(|&algorithm| points(algorithm)).collect();
    if all.is_empty() {
        return nothing_to_plot(area);
    }
    let mut chart = ChartBuilder::on(area).margin(20).x_label_area_size(50).y_label_area_size(90).build_cartesian_2d(
        log_range(all.iter().map(|&(x, _)| x)).log_scale(),
        log_range(all.iter().map(|&(_, y)| y)).log_scale(),
    )?;
    chart
        .configure_mesh()
        .x_label_formatter(&|x| units::count_short(*x))
        .y_label_formatter(&|y| units::seconds(*y))
        .x_desc("nodes explored (log scale)")
        .y_desc(Axis::TIME.description)
        .label_style((FONT, 16))
        .axis_desc_style((FONT, 18))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for summary in summaries {
        let points = points(summary.algorithm);
        if points.is_empty() {
            continue;
        }
        let colour = colour(timings, summary.algorithm);
        let name = timings.name(summary.algorithm);
        // A count that is no count of nodes puts its points in the wrong place.
        let points_flag = if summary.flat_count { trust::series(summary) } else { None };
        let points_flag = points_flag.map(|flag| format!(" ({flag})")).unwrap_or_default();
        chart
            .draw_series(points.iter().map(|&point| Circle::new(point, 4, colour.filled())))?
            .label(format!("{name}: one search{points_flag}"))
            .legend(move |(x, y)| Circle::new((x + 12, y), 4, colour.filled()));
        let (Some(cost), Some(low), Some(high)) = (
            summary.seconds_per_node,
            points.iter().map(|&(x, _)| x).reduce(f64::min),
            points.iter().map(|&(x, _)| x).reduce(f64::max),
        ) else {
            continue;
        };
        // time = start-up + cost × nodes: a curve on log-log axes, drawn
        // through points evenly spaced in log nodes (a straight line
        // without a start-up).
        let startup = summary.startup.unwrap_or(0.0);
        let fitted = (0..=32).map(|i| {
            let nodes = low * (high / low).powf(f64::from(i) / 32.0);
            (nodes, startup + cost * nodes)
        });
        let with = summary.startup.map(|s| format!(" + {} start-up", units::seconds(s))).unwrap_or_default();
        let flag = trust::series(summary).map(|flag| format!(" ({flag})")).unwrap_or_default();
        chart
            .draw_series(LineSeries::new(fitted, colour.stroke_width(2)))?
            .label(format!("{name}: fitted {} per node{with}{flag}", units::per_node(cost)))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], colour.stroke_width(2)));
    }
    // The points rise along the diagonal: the upper left corner is free.
    legend(&mut chart, SeriesLabelPosition::UpperLeft, LEGEND_FONT)?;
    Ok(())
}

/// The size of a legend's text where it fits.
const LEGEND_FONT: u32 = 17;

/// The smallest size text is drawn at, however long.
const SMALLEST_FONT: u32 = 11;

/// The size, `largest` at most, at which `text` fits `width` pixels: the
/// font's characters average under 0.6 of its size in width.
fn fitting_font(largest: u32, text: &str, width: u32) -> u32 {
    let characters = text.chars().count().max(1) as f64;
    let fits = (f64::from(width) / (0.6 * characters)).floor() as u32;
    fits.clamp(SMALLEST_FONT, largest)
}

/// Draws the legend of `chart`'s labelled series at `position`.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
    font_size: u32,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .label_font((FONT, font_size))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    Ok(())
}

/// The colour of `algorithm`'s line: by its place among the series.
fn colour(timings: &Timings, algorithm: Algorithm) -> RGBColor {
    let index = timings.series.iter().position(|&a| a == algorithm).unwrap_or(0);
    PALETTE[index % PALETTE.len()]
}

/// Says, in the middle of `area`, that there is nothing to plot.
fn nothing_to_plot<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (width, height) = area.dim_in_pixel();
    let style = TextStyle::from((FONT, 22).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    let centre = (i32::try_from(width / 2).unwrap_or(0), i32::try_from(height / 2).unwrap_or(0));
    area.draw(&Text::new(NOTHING_TO_PLOT, centre, style))?;
    Ok(())
}

/// A range for a log axis around the positive `values`, widened to whole
/// powers of ten so the axis has labelled ticks at both ends.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (low, high) = values
        .filter(|&value| value > 0.0 && value.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), value| (low.min(value), high.max(value)));
    if low > high {
        return 1.0..10.0;
    }
    let low = 10f64.powf(low.log10().floor());
    let high = 10f64.powf(high.log10().ceil()).max(low * 10.0);
    // A hair wider, so rounding cannot drop the labels at the ends.
    low * 0.999..high * 1.001
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::report::measure::example;
    use crate::report::positions::built_in;
    use crate::report::timings::Cell;

    /// Minimax's searches of input2.txt at depths 1 to 3, as a report
    /// measures them.
    fn searches() -> Timings {
        let cells = (1..=3)
            .map(|depth| {
                let nodes = 8u64.pow(depth);
                let outcome = CellResult::Measured(example(nodes, 1e-7 * nodes as f64));
                Cell { position: 0, algorithm: Algorithm::Minimax, depth, outcome }
            })
            .collect();
        let (budget, clock_overhead) = (Duration::from_secs(2), Duration::ZERO);
        let (positions, series) = (vec![built_in("input2.txt")], vec![Algorithm::Minimax]);
        Timings { positions, series, cells, max_depth: 3, budget, clock_overhead, runs: None }
    }

    #[test]
    fn every_chart_of_a_debug_build_says_its_timings_are_not_to_be_trusted() {
        let timings = searches();
        let mut machine = Machine::probe();
        machine.optimized = false;
        for chart in Chart::ALL {
            let (_, svg) = chart.draw(&timings, &machine).unwrap();
            assert!(svg.contains(&format!("{} (debug build: not to be trusted)", chart.title())), "{chart:?}");
        }
        machine.optimized = true;
        for chart in Chart::ALL {
            let (_, svg) = chart.draw(&timings, &machine).unwrap();
            assert!(!svg.contains(trust::NOT_TRUSTED), "{chart:?}: a release build's are");
        }
    }

    #[test]
    fn log_ranges_cover_whole_decades() {
        let decades = |range: std::ops::Range<f64>| (range.start.log10().round(), range.end.log10().round());
        assert_eq!(decades(log_range([3e-6, 0.2].into_iter())), (-6.0, 0.0));
        assert_eq!(decades(log_range([100.0].into_iter())), (2.0, 3.0));
        assert_eq!(log_range([0.0, f64::NAN].into_iter()), 1.0..10.0);
        let range = log_range([3e-6, 0.2].into_iter());
        assert!(range.start < 1e-6 && range.end > 1.0, "the end labels are inside: {range:?}");
    }

    #[test]
    fn panels_fill_a_grid_of_at_most_three_columns() {
        assert_eq!(grid(1, 3), (1, 1));
        assert_eq!(grid(2, 3), (1, 2));
        assert_eq!(grid(4, 3), (2, 2));
        assert_eq!(grid(5, 3), (2, 3));
        assert_eq!(grid(7, 3), (3, 3));
        assert_eq!(grid(5, 2), (3, 2), "long names: two columns");
    }
}
