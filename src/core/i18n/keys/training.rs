//! The training engine's refusals: objectives, optimisers and the lab's session.

keys! { "training";
    use_names(name, names) = "“{name}”: use {names}";
    beyond(name, i, last) = "{name} is {i}, beyond 0 … {last}";
    causal_future(query, key) = "under the causal mask query {query} cannot see key {key} (its weight is 0, its log −∞)";
    objective_not_json(detail) = "the objective is not JSON: {detail}";
    objective_not_object = "the objective must be an object with \"attend\" or \"output\"";
    unknown_field(name) = "unknown field \"{name}\": use \"attend\" or \"output\", and \"train\"";
    not_both = "give \"attend\" or \"output\", not both";
    attend_or_output = "give \"attend\" or \"output\"";
    attend_not_list(shape) = "\"attend\" must be a list of {shape}";
    no_targets = "\"attend\" has no targets";
    whole_number(field) = "{field} must be a whole number";
    output_rows(n, width) = "\"output\" must be {n} rows (one per token) of {width} numbers";
    output_row(field, width) = "{field} must be {width} numbers (the output's width)";
    not_finite(field) = "{field} is not a finite number";
    train_not_list = "\"train\" must be a list of names";
    train_names(why) = "\"train\" names {why}";
    lr_positive(lr) = "the learning rate must be a positive number, not {lr}";
    unknown_optimizer(name) = "unknown optimizer “{name}”: use sgd or adam";
    loss_not_finite = "the loss is not a finite number";
    step_not_taken(why) = "Step not taken: {why}. Lower the learning rate, or start from other numbers.";
    not_a_target(entry) = "“{entry}” is not HEAD:QUERY,KEY (as 0:6,1)";
    not_a_learning_rate(text, most) = "“{text}” is not a learning rate above 0, at most {most}";
    saturated(none, sqrt_dk, dk, loss) = "Without scaling the softmax is saturated (one weight per row is 1, the rest 0): the gradient that reaches W_query is {none} against {sqrt_dk} with ÷√dₖ and {dk} with ÷dₖ, so W_query and W_key do not learn (loss {loss}).";
    learns_too(loss) = "Without scaling it learns too (loss {loss}): with an attention target the gradient at the scores is the weights minus the target, which does not vanish when the softmax saturates. The √dₖ argument is about a loss further on, such as an output to match: try the race example.";
    not_saturated(gradient, loss) = "Without scaling W_query still gets a gradient of {gradient} (loss {loss}): at this start its softmax is not saturated.";
    lane_refused(scale, why) = "With {scale} a step was not taken ({why}): its curve stops there; a lower learning rate goes on.";
    about_as_far(sqrt_dk, dk) = "÷√dₖ ({sqrt_dk}) and ÷dₖ ({dk}) went about as far.";
    went_further(winner, winner_loss, loser, loser_loss) = "{winner} went further ({winner_loss}) than {loser} ({loser_loss}).";
    gradient_zero(gradient) = "{gradient}: raising this number a little does not change the loss, so a training step leaves it as it is.";
    gradient_raises(gradient, by) = "{gradient}: raising this number by 0.01 would raise the loss by about {by}, so a training step lowers it.";
    gradient_lowers(gradient, by) = "{gradient}: raising this number by 0.01 would lower the loss by about {by}, so a training step raises it.";
    mean_square(value) = "The queries' and keys' components here have a mean square of {value}: ÷√dₖ keeps the scores near 1 in size when that is 1, as the tutorial assumes; larger components favour ÷dₖ, and which wins also depends on the start and the learning rate.";
}
