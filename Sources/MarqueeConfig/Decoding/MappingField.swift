import Yams

/// A key and its value in a mapping, for positioning diagnostics at either.
struct MappingField {
    let key: Node
    let value: Node
    var keyPosition: SourcePosition { SourcePosition(of: key) }
    var valuePosition: SourcePosition { SourcePosition(of: value) }
}
