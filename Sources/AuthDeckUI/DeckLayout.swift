/// Where each part of the deck goes at a given size; `render` draws by it and `reduce` maps
/// mouse clicks with it, so the two always agree.
public struct DeckLayout: Equatable, Sendable {
    public static let minWidth = 60, minHeight = 15

    public let width: Int
    public let height: Int
    public var tooSmall: Bool { width < Self.minWidth || height < Self.minHeight }
    /// The narrowest terminal with a providers pane beside the table.
    public static let providersMinWidth = 100
    /// The providers pane is shown only when there is room for it beside the table.
    public var providersWidth: Int { width >= Self.providersMinWidth ? 26 : 0 }
    public var tableX: Int { providersWidth }
    public var tableWidth: Int { width - providersWidth }
    /// Table header row and the first account row.
    public let tableHeaderY = 2
    public var firstRowY: Int { tableHeaderY + 1 }
    public var detailHeight: Int { height >= 30 ? 9 : 5 }
    public var detailY: Int { height - 2 - detailHeight }
    public var visibleRowCount: Int { max(0, detailY - 1 - firstRowY) }
    public var statusY: Int { height - 2 }
    public var helpY: Int { height - 1 }

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
