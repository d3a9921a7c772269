# A WinForms list box of 100 items for the real-Windows tests: 12 show at a time, and each
# selection is written to the path given, so a test can read which item the app selected.
param([string]$Out = "$env:TEMP\winactions-list.txt")
Add-Type -AssemblyName System.Windows.Forms
$form = New-Object System.Windows.Forms.Form
$form.Text = "Long List"
$form.Width = 320; $form.Height = 320
$list = New-Object System.Windows.Forms.ListBox
$list.Dock = "Fill"; $list.IntegralHeight = $true
for ($i = 1; $i -le 100; $i++) { [void]$list.Items.Add("Entry $i") }
$list.Add_SelectedIndexChanged({ Set-Content -Path $Out -Value $list.SelectedItem -Encoding UTF8 })
$form.Controls.Add($list)
[void]$form.ShowDialog()
