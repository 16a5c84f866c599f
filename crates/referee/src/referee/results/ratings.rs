//! Ratings on the Elo scale with 95% intervals: how strong each player is,
//! and how sure the tournament is of it.
//!
//! The model is Bradley-Terry: player `i` scores against player `j` with
//! probability `1 / (1 + 10^((r_j - r_i) / 400))`, a draw counting half a
//! win to each (forfeits are losses). The ratings are its maximum-likelihood
//! fit over every game, found by Hunter's MM iteration; the intervals come
//! from the likelihood's curvature at the fit (the inverse of the observed
//! information, the anchor's rating held fixed), as ±1.96 standard errors.
//! Only differences are measured, so one player, the anchor, is fixed at 0.
//!
//! A player who won or lost every game has no finite maximum, so each pair
//! that played is given one virtual draw, as BayesElo's prior does: it pulls
//! every difference a little towards 0, by less the more games there are.

use crate::referee::log::GameRecord;
use maxconnect4_game::player::Player;
use maxconnect4_game::printable::{NAME, csv_field, padded, printable};
use maxconnect4_game::rules::Outcome;

/// Elo points per unit of natural log-strength: `400 / ln 10`.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The standard normal's 97.5% quantile: ±1.96 standard errors hold 95%.
const Z95: f64 = 1.959_964;

/// Fit iterations at most; the fit usually settles within a few hundred.
const MAX_ITERATIONS: usize = 10_000;

/// One player's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The player's name.
    pub name: String,
    /// Elo points above the anchor; NaN for a player with no games (one
    /// the pre-flight check dropped), whom nothing rates.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo points; 0 for the anchor,
    /// and infinite for a player with no game linking it to the anchor.
    pub margin: f64,
}

/// The ratings of `names` from the games in `records` between them, with
/// `anchor` (an index into `names`) at 0, in the order of `names`.
#[must_use]
pub fn ratings(names: &[String], records: &[&GameRecord], anchor: usize) -> Vec<Rating> {
    let n = names.len();
    // games[i][j]: games between i and j; score[i][j]: i's points against j.
    let mut games = vec![vec![0.0; n]; n];
    let mut score = vec![vec![0.0; n]; n];
    let index = |name: &str| names.iter().position(|known| known == name);
    for record in records {
        let (Some(red), Some(green)) = (index(&record.red.name), index(&record.green.name)) else {
            continue;
        };
        if red == green {
            continue;
        }
        games[red][green] += 1.0;
        games[green][red] += 1.0;
        let red_points = match record.result {
            Outcome::Draw => 0.5,
            result if result.winner() == Some(Player::One) => 1.0,
            _ => 0.0,
        };
        score[red][green] += red_points;
        score[green][red] += 1.0 - red_points;
    }
    fit(&games, &score, anchor)
        .into_iter()
        .zip(names)
        .map(|((elo, margin), name)| Rating { name: name.clone(), elo, margin })
        .collect()
}

/// `ratings` as a table for the terminal, in the order given, headed by
/// the `anchor`'s name: each rating rounded to a whole point, with its 95%
/// margin (none for the anchor).
#[must_use]
pub fn ratings_table(ratings: &[Rating], anchor: &str) -> String {
    let names: Vec<String> = ratings.iter().map(|rating| printable(&rating.name, NAME)).collect();
    let width = names.iter().map(|name| name.chars().count()).max().unwrap_or(0);
    let anchor = printable(anchor, NAME);
    let mut text = format!("Ratings (Elo scale, {anchor} at 0, with 95% intervals):\n");
    for (rating, name) in ratings.iter().zip(&names) {
        if rating.elo.is_nan() {
            text.push_str(&format!("{}  {:>5}  (no games)\n", padded(name, width), "-"));
            continue;
        }
        let margin = if rating.margin == 0.0 {
            String::new()
        } else if rating.margin.is_finite() {
            format!(" ± {:.0}", rating.margin)
        } else {
            " ± ∞ (no games linking it to the anchor)".to_owned()
        };
        text.push_str(&format!("{}  {:>5.0}{margin}\n", padded(name, width), rating.elo));
    }
    text
}

/// `ratings` as CSV: the name, the rating and the interval's ends, each to
/// a tenth of a point (an empty end where the interval is unbounded, every
/// cell empty for a player with no games).
#[must_use]
pub fn ratings_csv(ratings: &[Rating]) -> String {
    let mut text = String::from("player,elo,low,high\n");
    for Rating { name, elo, margin } in ratings {
        if elo.is_nan() {
            text.push_str(&format!("{},,,\n", csv_field(name)));
            continue;
        }
        let (low, high) = if margin.is_finite() {
            (format!("{:.1}", elo - margin), format!("{:.1}", elo + margin))
        } else {
            Default::default()
        };
        text.push_str(&format!("{},{elo:.1},{low},{high}\n", csv_field(name)));
    }
    text
}

/// The fit of `games` and `score` (as in [`ratings`]) with the virtual
/// draws added: each player's Elo rating and 95% margin.
fn fit(games: &[Vec<f64>], score: &[Vec<f64>], anchor: usize) -> Vec<(f64, f64)> {
    let n = games.len();
    let mut games = games.to_vec();
    let mut score = score.to_vec();
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                games[i][j] += 1.0;
                score[i][j] += 0.5;
            }
        }
    }
    // Strengths gamma = e^theta, by Hunter's MM: gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j).
    let mut gamma = vec![1.0_f64; n];
    for _ in 0..MAX_ITERATIONS {
        let mut largest_change = 0.0_f64;
        for i in 0..n {
            let won: f64 = score[i].iter().sum();
            let denominator: f64 = (0..n).filter(|&j| j != i).map(|j| games[i][j] / (gamma[i] + gamma[j])).sum();
            if denominator > 0.0 {
                let next = won / denominator;
                largest_change = largest_change.max((next / gamma[i]).ln().abs());
                gamma[i] = next;
            }
        }
        if largest_change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = gamma.iter().map(|g| g.ln() - gamma[anchor].ln()).collect();
    // The observed information, without the anchor's row and column.
    let others: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut information = vec![vec![0.0; others.len()]; others.len()];
    for (a, &i) in others.iter().enumerate() {
        for j in 0..n {
            if j != i && games[i][j] > 0.0 {
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let weight = games[i][j] * p * (1.0 - p);
                information[a][a] += weight;
                if let Some(b) = others.iter().position(|&k| k == j) {
                    information[a][b] -= weight;
                }
            }
        }
    }
    // A player with no games has no row to invert: its margin is infinite.
    let played: Vec<usize> = (0..others.len()).filter(|&a| information[a][a] > 0.0).collect();
    let kept = played.iter().map(|&a| played.iter().map(|&b| information[a][b]).collect()).collect();
    let variances = inverse_diagonal(kept);
    (0..n)
        .map(|i| {
            let margin = match others.iter().position(|&k| k == i) {
                None => 0.0,
                Some(a) => played
                    .iter()
                    .position(|&b| b == a)
                    .and_then(|row| variances[row])
                    .map_or(f64::INFINITY, |variance| Z95 * variance.sqrt() * ELO),
            };
            (theta[i] * ELO, margin)
        })
        .collect()
}

/// The diagonal of the inverse of the symmetric matrix `m`, by Gauss-Jordan
/// elimination; `None` where the matrix is singular there (a player with no
/// path of games to the anchor).
fn inverse_diagonal(mut m: Vec<Vec<f64>>) -> Vec<Option<f64>> {
    let n = m.len();
    let mut inverse: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    let mut singular = vec![false; n];
    for column in 0..n {
        let pivot = (column..n).max_by(|&a, &b| m[a][column].abs().total_cmp(&m[b][column].abs()));
        let Some(pivot) = pivot.filter(|&row| m[row][column].abs() > 1e-12) else {
            singular[column] = true;
            continue;
        };
        m.swap(column, pivot);
        inverse.swap(column, pivot);
        let scale = m[column][column];
        for k in 0..n {
            m[column][k] /= scale;
            inverse[column][k] /= scale;
        }
        for row in (0..n).filter(|&row| row != column) {
            let factor = m[row][column];
            if factor != 0.0 {
                for k in 0..n {
                    m[row][k] -= factor * m[column][k];
                    inverse[row][k] -= factor * inverse[column][k];
                }
            }
        }
    }
    (0..n).map(|i| (!singular.iter().any(|&s| s)).then_some(inverse[i][i])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_by_hand() {
        // A scores 3 of 4 against B; with the virtual draw 3.5 of 5, so
        // p = 0.7: A is 400 log10(0.7 / 0.3) = 147.2 above B. The
        // information is 5 p (1 - p) = 1.05: a standard error of
        // 1 / sqrt(1.05) natural units, 169.5 Elo, so a margin of 332.2.
        let games = vec![vec![0.0, 4.0], vec![4.0, 0.0]];
        let score = vec![vec![0.0, 3.0], vec![1.0, 0.0]];
        let fitted = fit(&games, &score, 1);
        assert!((fitted[0].0 - 147.2).abs() < 0.1, "{fitted:?}");
        assert!((fitted[0].1 - 332.2).abs() < 0.1, "{fitted:?}");
        assert_eq!(fitted[1], (0.0, 0.0));
        let fitted = fit(&games, &score, 0);
        assert!((fitted[1].0 + 147.2).abs() < 0.1, "{fitted:?}");
    }

    #[test]
    fn the_table_and_the_csv() {
        let rating = |name: &str, elo, margin| Rating { name: name.to_owned(), elo, margin };
        let ratings = [rating("anchor", 0.0, 0.0), rating("b", -147.24, 332.2), rating("alone", 0.0, f64::INFINITY)];
        assert_eq!(
            ratings_table(&ratings, "anchor"),
            "Ratings (Elo scale, anchor at 0, with 95% intervals):\n\
             anchor      0\n\
             b        -147 ± 332\n\
             alone       0 ± ∞ (no games linking it to the anchor)\n"
        );
        assert_eq!(
            ratings_csv(&ratings),
            "player,elo,low,high\nanchor,0.0,0.0,0.0\nb,-147.2,-479.4,185.0\nalone,0.0,,\n"
        );
    }

    #[test]
    fn a_player_linked_to_nobody_has_no_interval() {
        let games = vec![vec![0.0, 2.0, 0.0], vec![2.0, 0.0, 0.0], vec![0.0, 0.0, 0.0]];
        let score = vec![vec![0.0, 1.0, 0.0], vec![1.0, 0.0, 0.0], vec![0.0, 0.0, 0.0]];
        let fitted = fit(&games, &score, 0);
        assert!(fitted[2].1.is_infinite(), "{fitted:?}");
        assert!(fitted[1].1.is_finite(), "{fitted:?}");
    }

    #[test]
    fn the_intervals_cover_the_truth_about_95_percent_of_the_time() {
        // Four simulated players 0, 100, 200 and 350 Elo above the first,
        // 60 games a pair, 400 tournaments: each interval of the three
        // should hold its true rating about 95% of the time. (A fixed seed:
        // the same tournaments every run.)
        let truth = [0.0, 100.0, 200.0, 350.0];
        let mut generator = maxconnect4_game::random::XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut random = move || generator.unit();
        let (mut covered, mut tried) = (0, 0);
        for _ in 0..400 {
            let mut games = vec![vec![0.0; 4]; 4];
            let mut score = vec![vec![0.0; 4]; 4];
            for i in 0..4 {
                for j in (i + 1)..4 {
                    let p = 1.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
                    for _ in 0..60 {
                        let won = f64::from(u8::from(random() < p));
                        games[i][j] += 1.0;
                        games[j][i] += 1.0;
                        score[i][j] += won;
                        score[j][i] += 1.0 - won;
                    }
                }
            }
            let fitted = fit(&games, &score, 0);
            for (player, &(elo, margin)) in fitted.iter().enumerate().skip(1) {
                tried += 1;
                covered += usize::from((elo - truth[player]).abs() <= margin);
            }
        }
        let rate = covered as f64 / tried as f64;
        assert!((0.92..=0.98).contains(&rate), "{covered} of {tried} intervals held the truth");
    }
}
