//! `core::tokens`: the Raschka tutorial's tokenisation.

use attention_explorer::core::model::tokens::{invisible_characters, Tokens};

#[test]
fn raschka_sentence() {
    let t = Tokens::new("Life is short, eat dessert first");
    assert_eq!(t.words, ["Life", "is", "short", "eat", "dessert", "first"]);
    assert_eq!(
        t.vocabulary,
        ["Life", "dessert", "eat", "first", "is", "short"]
    );
    assert_eq!(t.ids, [0, 4, 5, 2, 1, 3]);
}

#[test]
fn repeated_words_share_an_id_and_case_matters() {
    let t = Tokens::new("the cat saw The cat");
    assert_eq!(t.vocabulary, ["The", "cat", "saw", "the"]);
    assert_eq!(t.ids, [3, 1, 2, 0, 1]);
}

#[test]
fn commas_and_runs_of_white_space_vanish() {
    let t = Tokens::new("  a,b \t c\n,  ");
    assert_eq!(t.words, ["ab", "c"]);
    assert!(Tokens::new(" , ,").is_empty());
}

#[test]
fn byte_order_like_pythons_sorted() {
    assert_eq!(Tokens::new("é z Z a").vocabulary, ["Z", "a", "z", "é"]);
}

#[test]
fn white_space_as_python_splits_it() {
    // U+001F splits in Python (and here); U+200B does not, in either.
    let t = Tokens::new("a\u{1f}b\u{a0}c\u{200b}d");
    assert_eq!(t.words, ["a", "b", "c\u{200b}d"]);
}

#[test]
fn invisible_characters_are_named() {
    assert_eq!(
        invisible_characters("dog\u{200b} do\u{feff}g \u{200b}"),
        ["U+200B", "U+FEFF"]
    );
    assert!(invisible_characters("שלום עולם, émoji 🐕 e\u{301}").is_empty());
}

#[test]
fn a_repeated_word_is_told_apart_by_ordinals() {
    use attention_explorer::core::text::ordinal;
    let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
        .map(ordinal)
        .to_vec();
    assert_eq!(
        said,
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    );
}

#[test]
fn a_token_is_named_by_its_word_and_a_repeated_word_by_which_one() {
    use attention_explorer::core::model::tokens::token_label;
    let words: Vec<String> = ["the", "cat", "saw", "the", "dog"]
        .map(String::from)
        .to_vec();
    let named: Vec<String> = (0..6)
        .map(|k| token_label(&words, k).map_or_else(String::new, |m| m.english()))
        .collect();
    assert_eq!(
        named,
        ["“the” (1st)", "“cat”", "“saw”", "“the” (2nd)", "“dog”", ""]
    );
}

#[test]
fn a_count_is_written_with_its_thousands_apart() {
    use attention_explorer::core::text::grouped;
    assert_eq!(grouped(30_522), "30 522");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1_000_000), "1 000 000");
    assert_eq!(grouped(0), "0");
}
