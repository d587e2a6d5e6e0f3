import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let displayKeys = ["output", "connector", "mode", "rotation", "scaling", "background", "modesetting", "maxImagePixels", "power", "cec"]

    mutating func decodeDisplay(_ node: Node) -> DisplayConfiguration {
        var display = DisplayConfiguration()
        guard let fields = fields(of: node, in: "display", allowed: Self.displayKeys) else { return display }
        if let node = fields["output"]?.value, let text = string(node, expected: "an output") {
            if let output = DisplayConfiguration.Output(parsing: text) {
                display.output = output
            } else {
                log.error(at: SourcePosition(of: node),
                          "unknown output '\(text)' (expected \(Suggestion.list(DisplayConfiguration.Output.spellings)))")
            }
        }
        decodeScreenLook(fields, into: &display)
        if let node = fields["modesetting"]?.value,
           let modesetting: DisplayConfiguration.Modesetting = choice(node, named: "modesetting") {
            display.modesetting = modesetting
        }
        if let node = fields["maxImagePixels"]?.value, let limit = decodeImagePixelLimit(node) {
            display.maxImagePixels = limit
        }
        if let node = fields["power"]?.value {
            display.power = decodeDisplayPower(node)
        }
        if let node = fields["cec"]?.value, let text = string(node, expected: "auto, off or a CEC device path such as /dev/cec0") {
            if let cec = DisplayConfiguration.CEC(parsing: text) {
                display.cec = cec
            } else {
                log.error(at: SourcePosition(of: node),
                          "bad cec setting '\(text)' (expected auto, off or a device path such as /dev/cec0)")
            }
        }
        return display
    }

    /// The keys a screen of `displays:` shares with `display:`: connector, mode, rotation,
    /// scaling and background, read from `fields` into `display`.
    mutating func decodeScreenLook(_ fields: [String: MappingField], into display: inout DisplayConfiguration) {
        if let node = fields["connector"]?.value, let connector = string(node, expected: "a connector name or auto") {
            display.connector = connector
        }
        if let node = fields["mode"]?.value, let text = string(node, expected: "a display mode") {
            if let mode = DisplayConfiguration.Mode(parsing: text) {
                display.mode = mode
            } else {
                log.error(at: SourcePosition(of: node),
                          "bad mode '\(text)' (expected preferred, WIDTHxHEIGHT or WIDTHxHEIGHT@RATE, e.g. 1920x1080@60)")
            }
        }
        if let node = fields["rotation"]?.value, let degrees = wholeNumber(node) {
            if let rotation = Rotation(degrees: degrees) {
                display.rotation = rotation
            } else {
                log.error(at: SourcePosition(of: node),
                          "rotation \(degrees) is not a multiple of 90 (expected 0, 90, 180 or 270)")
            }
        }
        if let node = fields["scaling"]?.value, let scaling: ScalingMode = choice(node, named: "scaling mode") {
            display.scaling = scaling
        }
        if let node = fields["background"]?.value, let background = decodeColor(node) {
            display.background = background
        }
    }

    /// `8192x8192` (a width times a height) or a plain pixel count such as `67108864`.
    private mutating func decodeImagePixelLimit(_ node: Node) -> ImagePixelLimit? {
        guard let text = string(node, expected: "a pixel limit such as 8192x8192") else { return nil }
        guard let limit = ImagePixelLimit(parsing: text) else {
            log.error(at: SourcePosition(of: node),
                      "bad maxImagePixels '\(text)' (expected WIDTHxHEIGHT or a pixel count, e.g. 8192x8192)")
            return nil
        }
        return limit
    }

    private mutating func decodeColor(_ node: Node) -> RGBColor? {
        // An unquoted `#000000` is a YAML comment, which leaves the value empty.
        if isNothing(node) {
            log.error(at: SourcePosition(of: node),
                      "expected a colour such as \"#000000\", found nothing (quote it: # starts a comment in YAML)")
            return nil
        }
        guard let text = string(node, expected: "a colour such as \"#000000\"") else { return nil }
        guard let color = RGBColor(parsing: text) else {
            log.error(at: SourcePosition(of: node), "bad colour '\(text)' (expected #RRGGBB, e.g. \"#000000\")")
            return nil
        }
        return color
    }
}
