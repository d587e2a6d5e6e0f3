/// One command of the control vocabulary: its name, its fields, a line of help, whether a held key
/// repeats it, the role it needs, how `marquee ctl` takes its values, and the command it builds
/// from checked values. `ControlVocabulary.all` lists every one; nothing else spells a name.
public struct ControlCommandSpec: Sendable {
    public typealias Builder = @Sendable (ControlArguments) throws(ControlArgumentError) -> ControlCommand

    public let name: String
    public let fields: [ControlField]
    public let help: String
    /// A held key's autorepeat issues it again (seeking and volume ramp; toggles would flip back
    /// and forth, so they act once per press).
    public let repeatsWhenHeld: Bool
    /// The fields `marquee ctl NAME VALUE...` fills, in order, and how its usage line shows them.
    public let words: [String]
    public let usage: String
    let build: Builder

    public init(_ name: String, fields: [ControlField] = [], words: [String] = [], usage: String = "",
                repeatsWhenHeld: Bool = false, help: String, build: @escaping Builder) {
        self.name = name
        self.fields = fields
        self.help = help
        self.repeatsWhenHeld = repeatsWhenHeld
        self.words = words
        self.usage = usage
        self.build = build
    }

    /// A key command that takes no values: keys, signals and the socket send the same thing.
    public static func key(_ command: Command, repeatsWhenHeld: Bool = false, help: String) -> ControlCommandSpec {
        ControlCommandSpec(command.rawValue, repeatsWhenHeld: repeatsWhenHeld, help: help) { _ throws(ControlArgumentError) in .action(.command(command)) }
    }

    public func field(_ name: String) -> ControlField? { fields.first { $0.name == name } }

    /// The command these values ask for, or why they do not make one.
    public func command(_ arguments: ControlArguments) throws(ControlArgumentError) -> ControlCommand {
        try build(arguments)
    }

    /// `skipForward [SECONDS]`: how `marquee ctl` takes it.
    public var synopsis: String { usage.isEmpty ? name : "\(name) \(usage)" }
}
