//! `core::tokens`: the Raschka tutorial's tokenisation.

use attention_explorer::core::tokens::Tokens;

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
