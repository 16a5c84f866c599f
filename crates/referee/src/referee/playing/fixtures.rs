//! Which games a tournament plays, in one list that `tournament
//! --list-games` prints and a run plays, so that the two never disagree.
//!
//! In a round robin every pair of players meets from each opening, once
//! with each colour. In a gauntlet (`--gauntlet`) the named reference
//! players meet every other player that way, and neither the references
//! nor the others meet among themselves: a class of N programs against R
//! references costs N x R x 2 games per opening instead of N x (N - 1).
//! The list is in a fixed order (openings, then red, then green, each as
//! given), so that a part of it ([`Shard`]) names the same games on every
//! machine; a shard takes every N-th game, so each gets a mix of players
//! and openings.

use maxconnect4_game::shard::Shard;

/// A game of a tournament: who plays red, who plays green, from which
/// opening.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fixture {
    /// Red's first move and green's reply, as two digits; empty for the
    /// empty board.
    pub opening: String,
    /// The name of the player playing red, who moves first.
    pub red: String,
    /// The name of the player playing green.
    pub green: String,
}

impl Fixture {
    /// The game's name, as logged: see [`game_id`].
    #[must_use]
    pub fn id(&self) -> String {
        game_id(&self.opening, &self.red, &self.green)
    }

    /// The game a tournament names `id` ([`game_id`]), if `id` is such a
    /// name: an opening's columns 1-7 (or `empty`), then red's and green's
    /// names. A match numbers its games, so none of its ids is one.
    #[must_use]
    pub fn named(id: &str) -> Option<Fixture> {
        let mut parts = id.split('+');
        let (opening, red, green) = (parts.next()?, parts.next()?, parts.next()?);
        let columns =
            |opening: &str| !opening.is_empty() && opening.bytes().all(|digit| (b'1'..=b'7').contains(&digit));
        let opening = match opening {
            "empty" => "",
            opening if columns(opening) => opening,
            _ => return None,
        };
        if parts.next().is_some() || red.is_empty() || green.is_empty() {
            return None;
        }
        Some(Fixture { opening: opening.to_owned(), red: red.to_owned(), green: green.to_owned() })
    }
}

/// A game's name: `OPENING+RED+GREEN` (`empty+RED+GREEN` from the empty
/// board), unambiguous since names have no `+`.
#[must_use]
pub fn game_id(opening: &str, red: &str, green: &str) -> String {
    let opening = if opening.is_empty() { "empty" } else { opening };
    format!("{opening}+{red}+{green}")
}

/// Every game between `players` from each of `openings`: each pair once
/// with each colour, or with a `gauntlet` (names of players) only the pairs
/// of a reference and another player. Ordered by opening, then red, then
/// green, each in the order given. Made one at a time: a round robin of 200
/// players from 49 openings is two million games.
pub fn game_list<'a>(
    players: &'a [String],
    openings: &'a [String],
    gauntlet: &'a [String],
) -> impl Iterator<Item = Fixture> + 'a {
    openings.iter().flat_map(move |opening| {
        players.iter().flat_map(move |red| {
            players.iter().filter(move |green| meets(gauntlet, red, green)).map(move |green| Fixture {
                opening: opening.clone(),
                red: red.clone(),
                green: green.clone(),
            })
        })
    })
}

/// Whether `red` plays `green` in a tournament with this `gauntlet`: any
/// two players in a round robin (no gauntlet), else a reference and an
/// entrant.
#[must_use]
pub fn meets(gauntlet: &[String], red: &str, green: &str) -> bool {
    let reference = |name: &str| gauntlet.iter().any(|reference| reference == name);
    red != green && (gauntlet.is_empty() || reference(red) != reference(green))
}

/// The games of `list` in `shard`, in the list's order; all of them with
/// no shard.
pub fn in_shard(list: impl Iterator<Item = Fixture>, shard: Option<Shard>) -> impl Iterator<Item = Fixture> {
    list.enumerate().filter(move |&(place, _)| shard.is_none_or(|shard| shard.holds(place))).map(|(_, game)| game)
}

/// Refuses a gauntlet of `players` that names someone who is not a player,
/// names a player twice, or names every player (leaving no one to meet the
/// references). No gauntlet is a round robin.
///
/// # Errors
/// Says what is wrong, in a line.
pub fn check_gauntlet(players: &[String], gauntlet: &[String]) -> Result<(), GauntletError> {
    for (place, name) in gauntlet.iter().enumerate() {
        if !players.contains(name) {
            return Err(GauntletError::NoSuchPlayer(name.clone()));
        }
        if gauntlet[..place].contains(name) {
            return Err(GauntletError::Twice(name.clone()));
        }
    }
    if !gauntlet.is_empty() && players.iter().all(|player| gauntlet.contains(player)) {
        return Err(GauntletError::Everyone);
    }
    Ok(())
}

/// Why a gauntlet's list of references cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GauntletError {
    /// A reference, named here, is none of the players.
    #[error("the gauntlet names '{0}', but no player is named so")]
    NoSuchPlayer(String),
    /// A reference, named here, is named twice.
    #[error("the gauntlet names '{0}' twice")]
    Twice(String),
    /// Every player is a reference, so no one plays them.
    #[error("the gauntlet names every player, which leaves no one to play its reference players")]
    Everyone,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|&name| name.to_owned()).collect()
    }

    fn ids(list: &[Fixture]) -> Vec<String> {
        list.iter().map(Fixture::id).collect()
    }

    #[test]
    fn a_round_robin_is_every_pair_both_ways_opening_by_opening() {
        let list: Vec<Fixture> = game_list(&names(&["a", "b", "c"]), &names(&["44", ""]), &[]).collect();
        assert_eq!(
            ids(&list),
            [
                "44+a+b",
                "44+a+c",
                "44+b+a",
                "44+b+c",
                "44+c+a",
                "44+c+b",
                "empty+a+b",
                "empty+a+c",
                "empty+b+a",
                "empty+b+c",
                "empty+c+a",
                "empty+c+b"
            ]
        );
    }

    #[test]
    fn a_game_is_named_by_its_id_and_a_matchs_number_names_none() {
        let games: Vec<Fixture> = game_list(&names(&["a", "b-2.x"]), &names(&["44", ""]), &[]).collect();
        for game in &games {
            assert_eq!(Fixture::named(&game.id()).as_ref(), Some(game), "{}", game.id());
        }
        for id in ["1", "12", "", "44+a", "44+a+b+c", "48+a+b", "x+a+b", "+a+b", "44++b", "44+a+"] {
            assert_eq!(Fixture::named(id), None, "{id}");
        }
    }

    #[test]
    fn a_gauntlet_plays_only_references_against_the_others() {
        let players = names(&["s1", "r1", "s2", "s3", "r2"]);
        let list: Vec<Fixture> = game_list(&players, &names(&["44", "34"]), &names(&["r1", "r2"])).collect();
        assert_eq!(list.len(), 3 * 2 * 2 * 2, "3 students, 2 references, 2 colours, 2 openings");
        assert_eq!(ids(&list[..6]), ["44+s1+r1", "44+s1+r2", "44+r1+s1", "44+r1+s2", "44+r1+s3", "44+s2+r1"]);
        for game in &list {
            let references = [&game.red, &game.green].iter().filter(|name| name.starts_with('r')).count();
            assert_eq!(references, 1, "{}", game.id());
        }
    }

    #[test]
    fn a_gauntlet_names_some_players_but_not_all() {
        let players = names(&["a", "b", "c"]);
        assert_eq!(check_gauntlet(&players, &[]), Ok(()));
        assert_eq!(check_gauntlet(&players, &names(&["c", "a"])), Ok(()));
        assert_eq!(check_gauntlet(&players, &names(&["a", "d"])), Err(GauntletError::NoSuchPlayer("d".to_owned())));
        assert_eq!(check_gauntlet(&players, &names(&["a", "a"])), Err(GauntletError::Twice("a".to_owned())));
        assert_eq!(check_gauntlet(&players, &names(&["a", "b", "c"])), Err(GauntletError::Everyone));
    }

    #[test]
    fn shards_split_the_list_into_interleaved_parts() {
        let list: Vec<Fixture> = game_list(&names(&["a", "b", "c", "d"]), &names(&["44"]), &[]).collect();
        let shard = |index| Some(format!("{index}/5").parse::<Shard>().unwrap());
        let shards: Vec<Vec<String>> =
            (0..5).map(|index| ids(&in_shard(list.iter().cloned(), shard(index)).collect::<Vec<_>>())).collect();
        assert_eq!(in_shard(list.iter().cloned(), None).collect::<Vec<_>>(), list, "no shard is every game");
        assert_eq!(shards[1], ["44+a+c", "44+c+a", "44+d+c"], "places 1, 6 and 11");
        let mut joined: Vec<String> = shards.concat();
        joined.sort();
        let mut all = ids(&list);
        all.sort();
        assert_eq!(joined, all, "every game in exactly one shard");
    }
}
