/// A QR code's modules, drawn in the device-code modal so a phone can open the
/// verification page instead of someone typing the URL.
///
/// The encoding itself is done by libqrencode in the terminal layer; this type only holds
/// the result, so rendering stays pure and testable.
public struct QRMatrix: Equatable, Sendable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for a dark module.
    public let dark: [Bool]

    public init(size: Int, dark: [Bool]) {
        precondition(dark.count == size * size, "a QR matrix needs size² modules")
        self.size = size
        self.dark = dark
    }

    public subscript(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && dark[y * size + x]
    }

    /// Text lines drawing two module rows each with half blocks, with a quiet zone of
    /// `quiet` light modules. Light modules are drawn as blocks (the terminal's foreground)
    /// and dark ones as blanks, the way `qrencode -t UTF8` does for dark terminals.
    public func halfBlockLines(quiet: Int = 2) -> [String] {
        let span = -quiet..<(size + quiet)
        return stride(from: -quiet, to: size + quiet, by: 2).map { y in
            String(span.map { x -> Character in
                switch (!self[x, y], !self[x, y + 1] && y + 1 < size + quiet) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            })
        }
    }
}
