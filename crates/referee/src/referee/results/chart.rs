//! The standings of a tournament as a chart: each player's points beside
//! their total score difference, best first, as PNG for any viewer and SVG
//! for sharp printing, drawn from the same code.

use std::error::Error as StdError;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::referee::standings::Standing;
use maxconnect4_game::printable::{NAME, printable};
use maxconnect4_io::plot::{self, FONT, encode_png};

/// Why the chart could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The font to write the names with cannot be loaded.
    #[error(transparent)]
    Font(#[from] plot::FontError),
    /// The plotting library failed to draw, with its message.
    #[error("cannot draw the standings chart: {0}")]
    Draw(String),
    /// The drawn pixels cannot be encoded as a PNG image.
    #[error("cannot encode the standings chart as PNG")]
    Png(#[source] png::EncodingError),
}

type DrawResult = Result<(), Box<dyn StdError + Send + Sync>>;

/// Pixel height of the chart; the width grows with the number of players.
const HEIGHT: u32 = 560;

const POINTS: RGBColor = RGBColor(31, 119, 180);
const AHEAD: RGBColor = RGBColor(44, 160, 44);
const BEHIND: RGBColor = RGBColor(214, 39, 40);

/// Draws the chart of `standings` (best first) after `games` games: the
/// PNG file's bytes and the SVG file's text.
///
/// # Errors
/// When the built-in font cannot be loaded or drawing fails.
pub fn draw(standings: &[Standing], games: usize) -> Result<(Vec<u8>, String), ChartError> {
    plot::register_font()?;
    let size = (u32::try_from(standings.len()).unwrap_or(u32::MAX).saturating_mul(160).clamp(900, 4000), HEIGHT);
    let title = format!("Standings after {games} games");
    let draw_error = |error: Box<dyn StdError + Send + Sync>| ChartError::Draw(error.to_string());
    let mut pixels = vec![0; size.0 as usize * size.1 as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        render(&area, standings, &title).and_then(|()| Ok(area.present()?)).map_err(draw_error)?;
    }
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        render(&area, standings, &title).and_then(|()| Ok(area.present()?)).map_err(draw_error)?;
    }
    let png = encode_png(&pixels, size).map_err(ChartError::Png)?;
    Ok((png, svg))
}

fn render<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, standings: &[Standing], title: &str) -> DrawResult
where
    DB::ErrorType: 'static,
{
    area.fill(&WHITE)?;
    let area = area.titled(title, (FONT, 28))?;
    let panels = area.split_evenly((1, 2));
    // As a table shows them: a name from a log may hold anything, and a
    // control character in an SVG (XML) makes it a file no viewer opens.
    let names: Vec<String> = standings.iter().map(|standing| printable(&standing.name, NAME)).collect();
    let points: Vec<i64> = standings.iter().map(|standing| i64::from(standing.points)).collect();
    let differences: Vec<i64> = standings.iter().map(|standing| standing.score_difference).collect();
    bars(&panels[0], &names, &points, "points (2 for a win, 1 for a draw)", false)?;
    bars(&panels[1], &names, &differences, "total score difference", true)?;
    Ok(())
}

/// One bar per player, with its value written at the bar's end; `signed`
/// values are coloured and written by their sign.
fn bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[String],
    values: &[i64],
    caption: &str,
    signed: bool,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let low = values.iter().copied().min().unwrap_or(0).min(0);
    let high = values.iter().copied().max().unwrap_or(0).max(0);
    // Room above and below for the values written at the bars' ends.
    let pad = ((high - low) / 8).max(1);
    let low = if low < 0 { low - pad } else { 0 };
    // A title above the margin, which keeps the top label of the value axis
    // clear of it.
    let area = area.titled(caption, (FONT, 22))?;
    let mut chart = ChartBuilder::on(&area)
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(60)
        // A discrete range includes its end: one segment per player.
        .build_cartesian_2d((0..names.len().saturating_sub(1)).into_segmented(), low..high + pad)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(names.len())
        .x_label_formatter(&|segment| match segment {
            SegmentValue::CenterOf(index) => names.get(*index).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .label_style((FONT, 17))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let colour = |value: i64| match (signed, value < 0) {
        (false, _) => POINTS,
        (true, false) => AHEAD,
        (true, true) => BEHIND,
    };
    chart.draw_series(values.iter().enumerate().map(|(index, &value)| {
        let mut bar = Rectangle::new(
            [(SegmentValue::Exact(index), 0), (SegmentValue::Exact(index + 1), value)],
            colour(value).filled(),
        );
        bar.set_margin(0, 0, 18, 18);
        bar
    }))?;
    chart.draw_series(values.iter().enumerate().map(|(index, &value)| {
        // Just beyond the bar's end, above it or below a negative one.
        let (anchor, offset) = if value < 0 { (VPos::Top, 4) } else { (VPos::Bottom, -4) };
        let text = if signed && value > 0 { format!("+{value}") } else { value.to_string() };
        let style = TextStyle::from((FONT, 18).into_font()).pos(Pos::new(HPos::Center, anchor));
        EmptyElement::at((SegmentValue::CenterOf(index), value)) + Text::new(text, (0, offset), style)
    }))?;
    Ok(())
}
