//! What every chart of the program shares: text in the DejaVu Sans font
//! compiled into the program (drawn by plotters through `ab_glyph`), and PNG
//! files encoded with the `png` crate. Nothing depends on the fonts or image
//! libraries of the machine, so the program builds where none is installed
//! and a chart looks the same everywhere. An SVG names its font for the
//! viewer to find: DejaVu Sans, which most Linux systems have, or Verdana, of
//! the same widths, so that text fits the boxes drawn around it.

use std::sync::OnceLock;

use plotters::style::FontStyle;

/// The font family the built-in font is registered under, which charts ask
/// for and SVG files name: DejaVu Sans, or failing that a font of the same
/// widths.
pub const FONT: &str = "DejaVu Sans, Verdana, sans-serif";

/// The built-in font could not be registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the built-in font cannot be loaded")]
pub struct FontError;

/// Makes the built-in font the one plotters draws [`FONT`] text with. Safe
/// to call before every chart: the font is registered once.
///
/// # Errors
/// When the font data cannot be read.
pub fn register_font() -> Result<(), FontError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let registered = *REGISTERED
        .get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok());
    if registered { Ok(()) } else { Err(FontError) }
}

/// The RGB pixels of a bitmap chart as a PNG file.
///
/// # Errors
/// When the pixels do not fill `width` by `height`.
pub fn encode_png(pixels: &[u8], (width, height): (u32, u32)) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(pixels)?;
    writer.finish()?;
    Ok(bytes)
}
