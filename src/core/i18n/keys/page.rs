//! The page's frame: its name, the language picker, saved work, the contents.

keys! { "page";
    title = "Attention Explorer";
    tab_title = "Attention Explorer — self-attention, every number editable";
    loading = "Loading the explorer…";
    loading_live = "Numbers you type work already; the rest of the explorer is loading…";
    language = "Language";
    language_failed(name) = "The page could not be fetched in {name}; it stays in English. Try again when you are online.";
    sentences(first, second) = "{first} {second}";
    work_back = "Your last work in this browser is back.";
    reset_example = "Reset to the example";
    link_own_model = "This link opened its own model; your last work is still saved in this browser.";
    restore_work = "Restore your last work";
    not_restored(why) = "Not restored: {why}. It stays saved.";
    not_reset(why) = "Not reset: {why}.";
    contents = "Contents: every step and lab";
    crashed(message) = "Something went wrong and the explorer stopped: {message}. Reload the page to start again.";
}
