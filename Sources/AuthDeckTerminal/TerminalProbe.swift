import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// Facts about the terminal authdeck runs in, learnt without taking it over.
public enum TerminalProbe {
    /// True when both standard input and output are terminals (the TUI is possible).
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// True when the locale's character set is UTF-8 (else borders fall back to ASCII).
    public static func localeIsUTF8() -> Bool {
        setlocale(LC_ALL, "")
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        return String(cString: codeset).uppercased().replacingUTF8Dash() == "UTF8"
    }
}

extension String {
    func replacingUTF8Dash() -> String { filter { $0 != "-" } }
}
