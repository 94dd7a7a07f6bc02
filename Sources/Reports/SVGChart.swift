import Foundation

/// Self-contained SVG charts (no script, no font, no network): line charts with axes, ticks, units
/// and a legend, and horizontal bar charts. Drawn in a 640 × 340 view box that scales to its box.
enum SVGChart {
    /// One line of a line chart.
    struct Series {
        var name: String
        var points: [(x: Double, y: Double)]
        var dashed = false
        /// The palette entry; the same for a stream of this run and of the reference run.
        var color = 0
    }

    /// How the x axis maps values.
    enum XAxis {
        /// Values as they are, with `unit` in the axis title.
        case linear(title: String)
        /// Percentiles (0–100) spread as 1 / (1 − p), so that 90, 99, 99.9 and 99.99 get equal room.
        case percentile
    }

    static let palette = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989"]
    static let width = 640.0, height = 340.0
    static let left = 84.0, right = 34.0, titleHeight = 34.0, bottom = 52.0

    /// A line chart of `series` (each point's x mapped by `xAxis`), y from 0 to above the highest value.
    static func lines(id: String, title: String, xAxis: XAxis, yTitle: String, series: [Series], yFormat: (Double) -> String) -> String {
        let mapped = series.map { line in
            Series(name: line.name, points: line.points.map { (x: xPosition($0.x, xAxis), y: $0.y) }, dashed: line.dashed, color: line.color)
        }
        let key = legend(mapped.map { ($0.name, $0.color, $0.dashed) })
        let top = titleHeight + key.height + 8
        let allX = mapped.flatMap { $0.points.map(\.x) }
        let allY = mapped.flatMap { $0.points.map(\.y) }
        let lowest = Swift.min(0, allX.min() ?? 0)
        let xRange = (lowest, Swift.max(allX.max() ?? 1, lowest + 1e-9))
        let yTicks = niceTicks(upTo: allY.max() ?? 1)
        let yMax = yTicks.last ?? 1
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        func px(_ x: Double) -> Double { left + (x - xRange.0) / (xRange.1 - xRange.0) * plotWidth }
        func py(_ y: Double) -> Double { top + plotHeight - y / yMax * plotHeight }

        var svg = opening(id: id, title: title) + key.svg
        for tick in yTicks {
            svg += #"<line class="grid" x1="\#(f(left))" x2="\#(f(width - right))" y1="\#(f(py(tick)))" y2="\#(f(py(tick)))"/>"#
            svg += #"<text class="tick" x="\#(f(left - 6))" y="\#(f(py(tick) + 4))" text-anchor="end">\#(escaped(yFormat(tick)))</text>"#
        }
        for (value, label) in xTicks(xAxis, range: xRange) {
            svg += #"<line class="grid" x1="\#(f(px(value)))" x2="\#(f(px(value)))" y1="\#(f(top))" y2="\#(f(top + plotHeight))"/>"#
            svg += #"<text class="tick" x="\#(f(px(value)))" y="\#(f(top + plotHeight + 18))" text-anchor="middle">\#(escaped(label))</text>"#
        }
        svg += axes(top: top, plotWidth: plotWidth, plotHeight: plotHeight, xTitle: xTitle(xAxis), yTitle: yTitle)
        for line in mapped where !line.points.isEmpty {
            let path = line.points.enumerated().map { i, point in "\(i == 0 ? "M" : "L")\(f(px(point.x))),\(f(py(point.y)))" }.joined(separator: " ")
            let color = palette[line.color % palette.count]
            svg += #"<path class="series" d="\#(path)" fill="none" stroke="\#(color)" stroke-width="2.5"\#(line.dashed ? #" stroke-dasharray="6 4""# : "")><title>\#(escaped(line.name))</title></path>"#
            if line.points.count == 1, let point = line.points.first {
                svg += #"<circle cx="\#(f(px(point.x)))" cy="\#(f(py(point.y)))" r="4" fill="\#(color)"/>"#
            }
        }
        return svg + "</svg>"
    }

    /// A horizontal bar chart: one row per label, one bar per series in it.
    static func bars(id: String, title: String, valueTitle: String, labels: [String], seriesNames: [String], values: [[Double]],
                     format: (Double) -> String) -> String {
        let rowHeight = seriesNames.count > 1 ? 34.0 : 24.0
        let key = seriesNames.count > 1 ? legend(seriesNames.enumerated().map { ($0.element, $0.offset, false) }) : (svg: "", height: 0)
        let top = titleHeight + key.height + 8
        let chartHeight = top + Double(labels.count) * (rowHeight + 8) + bottom
        let labelWidth = Swift.min(300, Double(labels.map(\.count).max() ?? 0) * 9.6 + 16), plotWidth = width - labelWidth - right - 50
        let ticks = niceTicks(upTo: values.flatMap { $0 }.max() ?? 1)
        let maxValue = ticks.last ?? 1
        var svg = opening(id: id, title: title, height: chartHeight) + key.svg
        for tick in ticks {
            let x = labelWidth + tick / maxValue * plotWidth
            svg += #"<line class="grid" x1="\#(f(x))" x2="\#(f(x))" y1="\#(f(top))" y2="\#(f(chartHeight - bottom))"/>"#
            svg += #"<text class="tick" x="\#(f(x))" y="\#(f(chartHeight - bottom + 18))" text-anchor="middle">\#(escaped(format(tick)))</text>"#
        }
        for (row, label) in labels.enumerated() {
            let y = top + Double(row) * (rowHeight + 8)
            svg += #"<text class="label" x="\#(f(labelWidth - 8))" y="\#(f(y + rowHeight / 2 + 5))" text-anchor="end">\#(escaped(label))</text>"#
            let barHeight = rowHeight / Double(Swift.max(1, seriesNames.count))
            for (series, value) in values[row].enumerated() {
                let barY = y + Double(series) * barHeight
                let barWidth = Swift.max(1, value / maxValue * plotWidth)
                svg += #"<rect class="bar" x="\#(f(labelWidth))" y="\#(f(barY))" width="\#(f(barWidth))" height="\#(f(barHeight - 2))" fill="\#(palette[series % palette.count])"><title>\#(escaped("\(seriesNames[series]): \(format(value))"))</title></rect>"#
                svg += #"<text class="value" x="\#(f(labelWidth + barWidth + 4))" y="\#(f(barY + barHeight / 2 + 4))">\#(escaped(format(value)))</text>"#
            }
        }
        svg += #"<text class="axis-title" x="\#(f(labelWidth + plotWidth / 2))" y="\#(f(chartHeight - 8))" text-anchor="middle">\#(escaped(valueTitle))</text>"#
        return svg + "</svg>"
    }

    // MARK: - Parts

    private static func opening(id: String, title: String, height: Double = height) -> String {
        #"<svg class="chart" data-chart="\#(escaped(id))" viewBox="0 0 \#(f(width)) \#(f(height))" role="img" aria-label="\#(escaped(title))">"#
            + #"<text class="chart-title" x="\#(f(left))" y="22">\#(escaped(title))</text>"#
    }

    private static func axes(top: Double, plotWidth: Double, plotHeight: Double, xTitle: String, yTitle: String) -> String {
        #"<line class="axis" x1="\#(f(left))" x2="\#(f(left + plotWidth))" y1="\#(f(top + plotHeight))" y2="\#(f(top + plotHeight))"/>"#
            + #"<line class="axis" x1="\#(f(left))" x2="\#(f(left))" y1="\#(f(top))" y2="\#(f(top + plotHeight))"/>"#
            + #"<text class="axis-title" x="\#(f(left + plotWidth / 2))" y="\#(f(height - 10))" text-anchor="middle">\#(escaped(xTitle))</text>"#
            + #"<text class="axis-title" transform="translate(16 \#(f(top + plotHeight / 2))) rotate(-90)" text-anchor="middle">\#(escaped(yTitle))</text>"#
    }

    /// The legend under the title, its entries left to right, wrapping; and the height it takes.
    private static func legend(_ entries: [(name: String, color: Int, dashed: Bool)]) -> (svg: String, height: Double) {
        guard !entries.isEmpty else { return ("", 0) }
        var svg = ""
        var x = left, y = titleHeight + 10
        for entry in entries {
            let entryWidth = Double(entry.name.count) * 8.8 + 40
            if x + entryWidth > width - right, x > left {
                x = left
                y += 22
            }
            svg += #"<line x1="\#(f(x))" x2="\#(f(x + 22))" y1="\#(f(y))" y2="\#(f(y))" stroke="\#(palette[entry.color % palette.count])" stroke-width="3"\#(entry.dashed ? #" stroke-dasharray="6 4""# : "")/>"#
            svg += #"<text class="legend" x="\#(f(x + 27))" y="\#(f(y + 5))">\#(escaped(entry.name))</text>"#
            x += entryWidth
        }
        return (svg, y - titleHeight + 8)
    }

    private static func xPosition(_ x: Double, _ axis: XAxis) -> Double {
        switch axis {
        case .linear: x
        case .percentile: log10(1 / Swift.max(1e-6, 1 - x / 100))
        }
    }

    private static func xTitle(_ axis: XAxis) -> String {
        switch axis {
        case .linear(let title): title
        case .percentile: "percentile"
        }
    }

    private static func xTicks(_ axis: XAxis, range: (Double, Double)) -> [(Double, String)] {
        switch axis {
        case .percentile:
            return [(0, "0"), (1, "90"), (2, "99"), (3, "99.9"), (4, "99.99"), (5, "99.999")].filter { $0.0 <= range.1 + 1e-9 }
        case .linear:
            let span = range.1 - range.0
            return niceTicks(upTo: span).map { (range.0 + $0, compactNumber(range.0 + $0)) }
        }
    }

    /// 0 and 4–6 round steps up to at least `maximum`.
    static func niceTicks(upTo maximum: Double) -> [Double] {
        guard maximum > 0, maximum.isFinite else { return [0, 1] }
        let rough = maximum / 5
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let count = Int((maximum / step).rounded(.up))
        return (0...count).map { Double($0) * step }
    }

    /// A short number: 1.2k, 3.4M, 0.25.
    static func compactNumber(_ value: Double) -> String {
        let magnitude = abs(value)
        let (scaled, suffix): (Double, String) = magnitude >= 1e9 ? (value / 1e9, "G") : magnitude >= 1e6 ? (value / 1e6, "M")
            : magnitude >= 1e3 ? (value / 1e3, "k") : (value, "")
        let rounded = (scaled * 100).rounded() / 100
        let text = rounded == rounded.rounded() ? String(Int64(rounded)) : "\(rounded)"
        return text + suffix
    }

    private static func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int64(rounded)) : "\(rounded)"
    }
}
