extension Keymap {
    /// The man page's KEYS section (roff), written from the table: ManPageTests checks that
    /// man/authdeck.1 holds exactly this and rewrites it when asked (see ARCHITECTURE.md).
    public static var manualSection: String {
        var roff = """
        .SH KEYS
        In the deck (\\fBauthdeck\\fR on a terminal, \\fBauthdeck deck\\fR, \\fBauthdeck demo\\fR). A \\fB[keys]\\fR
        table in config.toml adds your own key for an action
        (\(actionNames.joined(separator: ", "))):
        one character, or \(keyNames.joined(separator: ", "));
        the help shows it beside the default, and it works wherever the default does, in the windows too.

        """
        for binding in bindings { roff += ".TP\n.B \(binding.label)\n\(binding.help)\n" }
        return roff
    }
}
