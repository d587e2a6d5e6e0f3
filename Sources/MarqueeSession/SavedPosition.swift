import Foundation
import MarqueeCore

/// What is playing, kept on disk so a restart resumes there: the screen, the daypart, the item
/// (index, id, url), the media time of the frame on screen, and the config it belongs to.
package struct SavedPosition: Codable, Equatable, Sendable {
    package var screen: String
    package var daypart: String?
    package var index: Int
    package var id: String?
    package var url: String
    /// Seconds: the source time of the frame on screen (status `position`).
    package var time: Double
    /// `sha256:HEX` of the config (or of the media list given on the command line).
    package var config: String
    /// UTC, when it was saved.
    package var savedAt: String
}
