# A WinForms DataGridView for the real-Windows tests: three resizable columns, ten rows, a
# Save button that writes the grid as CSV to the path given, so a test can read what the
# app holds. Runs with the PowerShell every Windows has; no build step.
param([string]$Out = "$env:TEMP\winactions-grid.csv")
Add-Type -AssemblyName System.Windows.Forms
$form = New-Object System.Windows.Forms.Form
$form.Text = "Orders Grid"
$form.Width = 640; $form.Height = 480
$grid = New-Object System.Windows.Forms.DataGridView
$grid.Dock = "Top"; $grid.Height = 360
$grid.AllowUserToResizeColumns = $true
[void]$grid.Columns.Add("Name", "Name"); [void]$grid.Columns.Add("Qty", "Qty"); [void]$grid.Columns.Add("Price", "Price")
foreach ($c in $grid.Columns) { $c.Width = 120 }
for ($i = 0; $i -lt 10; $i++) { [void]$grid.Rows.Add("Widget $i", ($i % 4) + 1, "$($i * 7).50") }
$save = New-Object System.Windows.Forms.Button
$save.Text = "Save"; $save.Top = 380; $save.Left = 20
$save.Add_Click({
    $lines = @(($grid.Columns | ForEach-Object { "$($_.HeaderText):$($_.Width)" }) -join ",")
    foreach ($r in $grid.Rows) { if (-not $r.IsNewRow) { $lines += (($r.Cells | ForEach-Object { $_.Value }) -join ",") } }
    Set-Content -Path $Out -Value $lines -Encoding UTF8
})
$form.Controls.Add($grid); $form.Controls.Add($save)
[void]$form.ShowDialog()
