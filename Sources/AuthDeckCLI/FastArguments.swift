/// The plain forms of the most used commands — `authdeck token ACCOUNT` (what the front hands
/// over when the token must be renewed), `authdeck` alone on a terminal, `authdeck deck` and
/// `authdeck accounts`, with their own options — recognised without ArgumentParser.
///
/// Why: ArgumentParser's first parse in a process reflects each option's wrapper and looks up
/// protocol conformances across the whole binary, and people open the deck and scripts list
/// accounts all day. Anything but these exact forms — help, `--version`, an unknown or repeated
/// option, a value that looks like an option, `--opt=value` — is left to ArgumentParser, so
/// its messages and behaviour are unchanged; `FastArgumentsTests` holds both parses equal.
struct FastArguments: Equatable {
    enum Command: Equatable {
        /// `authdeck` with no arguments (the deck on a terminal, `status` otherwise).
        case bare
        /// `authdeck token ACCOUNT`, exactly (the front's own form: `FrontMain`).
        case token(account: String)
        case deck(theme: String?)
        case accounts(json: Bool, provider: String?)
    }

    var command: Command
    var store: String?
    var config: String?

    /// The options each command takes here, as ArgumentParser spells them; a flag has no value.
    /// `--no-input` is every command's; neither of these ever asks, so it changes nothing here.
    static let options: [String: Set<String>] = [
        "deck": ["--store", "--config", "--theme", "--no-input"],
        "accounts": ["--store", "--config", "--json", "--provider", "--no-input"],
    ]
    static let flags: Set<String> = ["--json", "--no-input"]

    /// The parsed form of `arguments` (without the program name), or nil to use ArgumentParser.
    init?(_ arguments: [String]) {
        guard let name = arguments.first else {
            command = .bare
            return
        }
        if name == "token" {
            guard arguments.count == 2, !arguments[1].hasPrefix("-") else { return nil }
            command = .token(account: arguments[1])
            return
        }
        guard let known = Self.options[name] else { return nil }
        var values: [String: String] = [:]
        var i = 1
        while i < arguments.count {
            let option = arguments[i]
            guard known.contains(option), values[option] == nil else { return nil }
            if Self.flags.contains(option) {
                values[option] = ""
                i += 1
                continue
            }
            guard i + 1 < arguments.count, !arguments[i + 1].hasPrefix("-") else { return nil }
            values[option] = arguments[i + 1]
            i += 2
        }
        store = values["--store"]
        config = values["--config"]
        command = name == "deck" ? .deck(theme: values["--theme"])
            : .accounts(json: values["--json"] != nil, provider: values["--provider"])
    }
}
