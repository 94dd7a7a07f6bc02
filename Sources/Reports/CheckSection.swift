@_spi(Tooling) import RunResults

/// The differential check in the HTML and Markdown reports: the verdict and the first mismatches,
/// each with its user's UTC offset and fasting protocol, the row, the field and both values.
enum CheckSection {
    /// The HTML section: a line when nothing differs, else the table of the first mismatches and the count per field.
    static func html(_ check: CheckReport) -> String {
        let users = "\(Summary.compact(Double(check.users))) users" + (check.sample < 1 ? " (a \(Summary.compact(check.sample * 100)) % sample)" : "")
            + (check.boundaryUsers > 0 ? " and \(check.boundaryUsers) boundary users" : "")
        var html = "<h2>Check against the \(escaped(check.against))</h2>"
        guard check.mismatches > 0 else { return html + "<p>No mismatch on \(users).</p>" }
        html += "<p class=\"fail\">\(Summary.compact(Double(check.mismatches))) mismatches on \(users); the first \(check.listed.count):</p>"
        html += "<table><thead><tr><th>user</th><th>UTC offset, min</th><th>protocol</th><th>row</th><th>field</th><th>implementation</th><th>reference</th></tr></thead><tbody>"
        for m in check.listed {
            html += "<tr><td><code>\(escaped(m.user))</code>\(m.boundaryUser == true ? " (boundary user)" : "")</td><td class=\"number\">\(offset(m))</td><td>\(escaped(m.fastingProtocol ?? "—"))</td>"
            html += "<td>\(escaped(m.row))</td><td><code>\(escaped(m.field))</code></td><td class=\"number\">\(escaped(m.value))</td>"
            html += "<td class=\"number\">\(escaped(m.reference))</td></tr>"
        }
        html += "</tbody></table>"
        let byField = check.byField.sorted { $0.key < $1.key }.map { "\($0.key) \(Summary.compact(Double($0.value)))" }
        return html + "<p>By field: \(escaped(byField.joined(separator: ", ")))</p>"
    }

    /// The Markdown lines: a line when nothing differs, else the verdict and the table of the first mismatches.
    static func markdown(_ check: CheckReport) -> [String] {
        let verdict = "Checked against the \(check.against) on \(check.users) users"
            + (check.boundaryUsers > 0 ? " and \(check.boundaryUsers) boundary users" : "") + ": "
        guard check.mismatches > 0 else { return ["", verdict + "no mismatch."] }
        var lines = ["", "🔴 " + verdict + "\(check.mismatches) mismatches; the first \(check.listed.count):", ""]
        lines.append("| user | UTC offset, min | protocol | row | field | implementation | reference |")
        lines.append("| --- | ---: | --- | --- | --- | ---: | ---: |")
        let cell = MarkdownReport.cell
        for m in check.listed {
            lines.append("| `\(m.user)`\(m.boundaryUser == true ? " (boundary user)" : "") | \(offset(m)) | \(cell(m.fastingProtocol ?? "—")) | \(cell(m.row)) | `\(cell(m.field))` | \(cell(m.value)) | \(cell(m.reference)) |")
        }
        return lines
    }

    /// `+345`, `-300`, or `—` when unknown.
    private static func offset(_ mismatch: Mismatch) -> String {
        mismatch.utcOffsetMinutes.map { ($0 < 0 ? "" : "+") + "\($0)" } ?? "—"
    }
}
