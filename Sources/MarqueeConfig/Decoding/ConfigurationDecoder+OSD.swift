import Foundation
import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let osdKeys = ["enabled", "duration", "position", "scale", "show", "statusCard", "font", "stallAfter"]

    /// `osd:` settings; a bad value is reported where it is and the default kept.
    mutating func decodeOSD(_ node: Node) -> OSDConfiguration {
        var osd = OSDConfiguration()
        guard let fields = fields(of: node, in: "osd", allowed: Self.osdKeys) else { return osd }
        if let node = fields["enabled"]?.value, let value = bool(node) { osd.enabled = value }
        if let node = fields["statusCard"]?.value, let value = bool(node) { osd.statusCard = value }
        if let node = fields["duration"]?.value, let time = time(node) {
            if time > .zero && time <= MediaTime(seconds: 3600) {
                osd.duration = time.seconds
            } else {
                log.error(at: SourcePosition(of: node), "osd duration must be more than 0 and at most 1 hour, found \(time.seconds) s")
            }
        }
        if let node = fields["stallAfter"]?.value, let time = time(node) {
            if time >= .zero && time <= MediaTime(seconds: 3600) {
                osd.stallAfter = time.seconds
            } else {
                log.error(at: SourcePosition(of: node), "osd stallAfter must be 0 to 1 hour, found \(time.seconds) s")
            }
        }
        if let node = fields["position"]?.value, let position: OSDSettings.Position = choice(node, named: "osd position") {
            osd.position = position
        }
        if let node = fields["scale"]?.value, let scale = number(node) {
            if scale >= 0.25 && scale <= 4 {
                osd.scale = scale
            } else {
                log.error(at: SourcePosition(of: node), "osd scale must be from 0.25 to 4, found \(scale)")
            }
        }
        if let node = fields["show"]?.value {
            if case .sequence(let sequence) = node {
                let elements: [OSDElement] = sequence.compactMap { choice($0, named: "osd element") }
                if elements.count == sequence.count { osd.show = elements.map(\.rawValue) }
            } else {
                log.error(at: SourcePosition(of: node), "expected a list of osd elements (\(OSDElement.allCases.map(\.rawValue).joined(separator: ", "))), found \(describe(node))")
            }
        }
        if let node = fields["font"]?.value, let text = string(node, expected: "a font file") {
            let path = URL(fileURLWithPath: text, relativeTo: baseDirectory).standardizedFileURL.path
            if checkingMediaFiles && !FileManager.default.isReadableFile(atPath: path) {
                log.error(at: SourcePosition(of: node), "osd font \(path): no such file (or not readable)")
            } else {
                osd.font = path
            }
        }
        return osd
    }
}
