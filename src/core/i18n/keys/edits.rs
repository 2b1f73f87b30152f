//! The core's refusals of an edit, a size, a link or a saved state: what the model, the document and the link's reader say when they cannot take what they were given.

keys! { "edits";
    link_too_long(most) = "The link is longer than {most} characters and was not read; showing the default example.";
    no_preset_shown(name, names) = "There is no preset “{name}” (try {names}); showing the default example.";
    state_not_read(why) = "The link's state could not be read ({why}); showing the default example.";
    layer_ignored(value) = "The link's layer=“{value}” was ignored: use a whole number from 0 (layers count from 0).";
    unknown_param(name, known) = "The link's parameter “{name}” is unknown (known: {known}); ignored.";
    param_ignored(name, value, why) = "The link's {name}=“{value}” was ignored: {why}.";
    saved_part_not_read = "Part of your saved work could not be read and was left out:";
    saved_not_read(why) = "Your saved work could not be read ({why}) and is not used.";
    holds_no_model = "it holds no model";
    not_a_number(text) = "“{text}” is not a number";
    use_token(last) = "use a token from 0 to {last}";
    use_head(last) = "use a head from 0 to {last}";
    use_decimals(last) = "use a number of decimals from 0 to {last}";
    use_flag = "use 1 or 0";
    no_step(name, names) = "there is no step “{name}” to show (use {names})";
    not_a_face(entry) = "“{entry}” is not MATRIX[.HEAD]:numbers|heatmap|gradient";
    no_matrix(name) = "there is no matrix “{name}”";
    use_whole = "use a whole number from 0";
    names_no_step(steps) = "it names no step (name those to show, as steps=scores,weights; the steps are {steps}), so every step is shown";
    use_controls = "use none, dims or all";
    use_theme = "use light, dark or auto";
    use_lang = "use en, zh-CN, es, pt-BR, fr, ko or ar";
    cut_short = "its data is cut short (not base64url)";
    not_base64url(c) = "“{c}” is not a base64url character";
    base_no_preset(name) = "base: there is no preset “{name}”";
    base_expected = "base: expected a preset's name or [seed, d_in, d_k, d_v, heads]";
    base_sizes(most, most_heads) = "base: sizes must be 1 to {most} and heads 1 to {most_heads}";
    no_preset(name) = "there is no preset “{name}”";
    in_sentence(why) = "sentence: {why}";
    longer_than(most) = "longer than {most} characters";
    inflates_past(most) = "it inflates to more than {most} bytes";
    not_deflated = "it is not deflated data: the link may be cut short";
    not_json(detail) = "its state is not valid JSON ({detail})";
    not_an_object = "its state is not a JSON object";
    at_field(field, why) = "{field}: {why}";
}
